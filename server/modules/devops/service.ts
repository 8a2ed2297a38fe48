import { ModelCallError, runDevopsTurn, type DevopsDeployment, type DevopsHost } from '../../agent/index.ts';
import type { Db } from '../../db/index.ts';
import type { Runtime } from '../../runtime/types.ts';
import { INSUFFICIENT_CREDITS, MINIMUM_BALANCE_MICROS } from '../../shared/credit-limits.ts';
import { Conflict, Forbidden, NotFound, PaymentRequired, UpstreamFailed } from '../../shared/domain-errors.ts';
import { balanceMicros, chargeUsage, microsToDollars, MICROS_PER_DOLLAR } from '../credits/index.ts';
import type { DeploymentsService } from '../deployments/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { createDevopsStore, turnsContext, type DevopsStore } from './store.ts';

/** The client waits this long for an answer (spec §9); the turn is cut off at the same time. */
const TURN_TIMEOUT_MS = 600_000;

export interface DevopsDeps {
  db: Db;
  store: DevopsStore;
  deployments: DeploymentsService;
  settings: SettingsService;
  runtime: Runtime;
  /** saas: model calls are charged to the user's credits. */
  charges: boolean;
  ownsConversation: (userId: string, conversationId: string) => Promise<boolean>;
}

type View = Awaited<ReturnType<DeploymentsService['list']>>['deployments'][number];
const asDeployment = (view: View): DevopsDeployment => ({
  name: view.droplet_name,
  environment: view.environment,
  url: view.url,
  size: view.size_slug,
  region: view.region,
  hourlyCostMicros: BigInt(Math.round(view.hourly_cost_usd * Number(MICROS_PER_DOLLAR))),
  totalCostUsd: view.total_cost_usd,
});

/** A deployment on this machine says localhost; the server reaches it on the loopback address. */
const probeUrl = (url: string) => url.replace('://localhost:', '://127.0.0.1:');

/**
 * The DevOps agent of each conversation (session id = conversation id): one turn at a time per
 * session, on the conversation's running runtime, with its messages kept for the tab's history.
 */
/** Says something in a conversation's DevOps session as the agent (a deployment's progress). */
const announceWith = (store: DevopsStore) => async (userId: string, conversationId: string, text: string) =>
  void (await store.append({ conversationId, userId, sender: 'agent', text }));

/** For the deployments module: it tells the session how a deployment goes without owning its table. */
export const devopsAnnouncer = (db: Db) => announceWith(createDevopsStore(db));

export function createDevopsService(deps: DevopsDeps) {
  const { db, store, deployments } = deps;
  const announce = announceWith(store);
  const answering = new Set<string>();

  async function owned(userId: string, conversationId: string) {
    if (!(await deps.ownsConversation(userId, conversationId))) throw new NotFound('DevOps session not found');
  }

  const infraHourlyCost = async (userId: string, conversationId: string) =>
    microsToDollars(await deployments.hourlyCostMicros(userId, conversationId));

  function hostFor(userId: string, conversationId: string, llm: DevopsHost['llm']): DevopsHost {
    const runtime = deps.runtime.get(conversationId);
    if (!runtime)
      throw new Conflict("The conversation's runtime is not running: open the conversation, then try again.");
    const live = async () => (await deployments.list(userId, conversationId)).deployments;
    return {
      runtime,
      llm,
      target: deployments.target,
      sizes: () => deployments.sizes(),
      async deploy(plan, archive) {
        await deployments.deploy(userId, {
          conversationId,
          name: plan.name,
          size: plan.size,
          region: plan.region,
          environment: plan.environment,
          app: { archive, start: plan.start, port: plan.port },
        });
        const made = (await live()).find((view) => view.droplet_name === plan.name);
        if (!made) throw new Error(`${plan.name} was deleted while it was being deployed.`);
        return asDeployment(made);
      },
      deployments: async () => (await live()).map(asDeployment),
      destroy: (name) => deployments.destroy(userId, conversationId, name),
      async probe(url, signal) {
        const response = await fetch(probeUrl(url), { signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]) });
        await response.body?.cancel();
        return response.status;
      },
      progress: (text) => announce(userId, conversationId, text),
      ...(deps.charges && {
        charge: (amountMicros: bigint, idempotencyKey: string) =>
          chargeUsage(db, {
            userId,
            amountMicros,
            idempotencyKey,
            description: `DevOps agent model usage in conversation ${conversationId}`,
            conversationId,
            category: 'llm',
            subcategory: 'devops',
          }),
      }),
    };
  }

  return {
    async history(userId: string, sessionId: string) {
      await owned(userId, sessionId);
      const rows = await store.history(sessionId);
      return {
        messages: rows.map((row) => ({
          id: row.id,
          text: row.text,
          sender: row.sender === 'user' ? ('user' as const) : ('agent' as const),
          timestamp: row.createdAt.toISOString(),
          is_complete: row.isComplete,
        })),
        infra_hourly_cost: await infraHourlyCost(userId, sessionId),
      };
    },

    async execute(userId: string, body: { user_id?: string | null; session_id: string; user_message: string }) {
      if (body.user_id && body.user_id !== userId) throw new Forbidden('user_id is not the signed-in user.');
      const conversationId = body.session_id;
      await owned(userId, conversationId);
      if (deps.charges && (await balanceMicros(db, userId)) < MINIMUM_BALANCE_MICROS)
        throw new PaymentRequired(INSUFFICIENT_CREDITS);
      if (answering.has(conversationId))
        throw new Conflict('The DevOps agent is still answering your previous message.');
      answering.add(conversationId);
      try {
        const { llm } = await deps.settings.forAgent(userId);
        const host = hostFor(userId, conversationId, llm);
        const context = turnsContext(await store.history(conversationId));
        const asked = await store.append({ conversationId, userId, sender: 'user', text: body.user_message });
        const reply = await runDevopsTurn(host, {
          id: asked.id,
          context,
          message: body.user_message,
          signal: AbortSignal.timeout(TURN_TIMEOUT_MS),
        }).catch((error: unknown) => {
          if (error instanceof ModelCallError) throw new UpstreamFailed(`The model call failed: ${error.reason}`);
          throw error;
        });
        await store.append({
          conversationId,
          userId,
          sender: 'agent',
          text: reply.text,
          isComplete: reply.isComplete,
          context: reply.messages,
        });
        return {
          display_message: reply.text,
          is_complete: reply.isComplete,
          infra_hourly_cost: await infraHourlyCost(userId, conversationId),
        };
      } finally {
        answering.delete(conversationId);
      }
    },
  };
}

export type DevopsService = ReturnType<typeof createDevopsService>;
