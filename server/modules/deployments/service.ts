import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { deployments } from '../../db/schema.ts';
import { MINIMUM_BALANCE_MICROS } from '../../shared/credit-limits.ts';
import { Conflict, NotFound } from '../../shared/domain-errors.ts';
import { chargeUsage, microsToDollars } from '../credits/index.ts';
import { accruedMicros, aliveMs, dueCharges } from './cost.ts';
import type { DeployProvider, DeployRequest } from './types.ts';

type DeploymentRow = typeof deployments.$inferSelect;

export interface DeploymentsDeps {
  db: Db;
  provider: DeployProvider;
  /** Whether the user owns the conversation (another user's is not found). */
  ownsConversation: (userId: string, conversationId: string) => Promise<boolean>;
  /** Tells the conversation's DevOps session something (the low-balance warning before a teardown). */
  announce?: (userId: string, conversationId: string, text: string) => Promise<void>;
  now?: () => Date;
}

/** As the API shows a deployment: its accrued cost and time alive, as of `now`. */
export function deploymentView(row: DeploymentRow, now: Date) {
  const ms = aliveMs(row, now);
  return {
    id: row.id,
    droplet_name: row.dropletName,
    droplet_ip: row.ip,
    url: row.url,
    environment: row.environment === 'staging' ? ('staging' as const) : ('production' as const),
    size_slug: row.sizeSlug,
    hourly_cost_usd: microsToDollars(row.hourlyCostMicros),
    region: row.region,
    hours_alive: ms / 3_600_000,
    created_at: row.createdAt.toISOString(),
    total_cost_usd: microsToDollars(accruedMicros(row.hourlyCostMicros, ms)),
  };
}

/** The DevOps agent's deployments: made through the provider, listed with their cost, charged hour by hour. */
export function createDeploymentsService({
  db,
  provider,
  ownsConversation,
  announce,
  now = () => new Date(),
}: DeploymentsDeps) {
  async function owned(userId: string, conversationId: string) {
    if (!(await ownsConversation(userId, conversationId))) throw new NotFound('Conversation not found');
  }

  const live = (userId: string, conversationId?: string) =>
    db
      .select()
      .from(deployments)
      .where(
        and(
          eq(deployments.userId, userId),
          conversationId ? eq(deployments.conversationId, conversationId) : undefined,
          isNull(deployments.deletedAt),
        ),
      )
      .orderBy(asc(deployments.createdAt), asc(deployments.id));

  /** Charges what is due on one deployment; answers the balance after the last charge, null when none was due. */
  async function charge(row: DeploymentRow, at: Date): Promise<bigint | null> {
    let balance: bigint | null = null;
    for (const due of dueCharges(row, at, row.dropletName)) {
      balance = await chargeUsage(db, {
        userId: row.userId,
        amountMicros: due.amountMicros,
        description: `Droplet ${due.description}`,
        idempotencyKey: due.idempotencyKey,
        conversationId: row.conversationId,
        category: 'droplet',
        subcategory: 'devops',
        at,
      });
      if (due.chargedHours > row.chargedHours)
        await db.update(deployments).set({ chargedHours: due.chargedHours }).where(eq(deployments.id, row.id));
    }
    return balance;
  }

  async function remove(row: DeploymentRow) {
    await provider.destroy(row.externalId);
    const [gone] = await db
      .update(deployments)
      .set({ deletedAt: now() })
      .where(and(eq(deployments.id, row.id), isNull(deployments.deletedAt)))
      .returning();
    // Deleted meanwhile by another call: that call charged it.
    if (gone) await charge(gone, gone.deletedAt ?? now());
  }

  /** The user's live deployments, after a warning in each conversation's DevOps session. */
  async function tearDown(userId: string) {
    const rows = await live(userId);
    for (const conversationId of new Set(rows.map((r) => r.conversationId)))
      await announce?.(
        userId,
        conversationId,
        'Your credit balance is below $0.10, so your deployments are being deleted to stop their cost. Buy credits to deploy again.',
      );
    for (const row of rows) await remove(row);
  }

  return {
    async deploy(userId: string, request: DeployRequest) {
      await owned(userId, request.conversationId);
      const [taken] = await db
        .select({ id: deployments.id })
        .from(deployments)
        .where(
          and(
            eq(deployments.conversationId, request.conversationId),
            eq(deployments.dropletName, request.name),
            isNull(deployments.deletedAt),
          ),
        );
      if (taken)
        throw new Conflict(
          `A deployment named ${request.name} is running in this conversation; delete it first or choose another name.`,
        );
      const made = await provider.create(request);
      const [row] = await db
        .insert(deployments)
        .values({
          id: randomUUID(),
          userId,
          conversationId: request.conversationId,
          provider: provider.name,
          externalId: made.externalId,
          dropletName: request.name,
          ip: made.ip,
          url: made.url,
          sizeSlug: made.sizeSlug,
          region: made.region,
          environment: request.environment,
          hourlyCostMicros: made.hourlyCostMicros,
          createdAt: now(),
        })
        .returning();
      return row!;
    },

    async list(userId: string, conversationId: string) {
      await owned(userId, conversationId);
      const at = now();
      const rows = await live(userId, conversationId);
      const totalMicros = rows.reduce((sum, row) => sum + accruedMicros(row.hourlyCostMicros, aliveMs(row, at)), 0n);
      const shown = rows.map((row) => deploymentView(row, at));
      return { deployments: shown, total_cost_usd: microsToDollars(totalMicros) };
    },

    /** Destroys a live deployment and charges its last part; its cost stops here. */
    async destroy(userId: string, conversationId: string, name: string) {
      await owned(userId, conversationId);
      const row = (await live(userId, conversationId)).find((r) => r.dropletName === name);
      if (!row) throw new NotFound(`No deployment named ${name} in this conversation.`);
      await remove(row);
    },

    /** Charges every live deployment's whole hours; tears down the deployments of users left below the chat's minimum ($0.10). */
    async chargeDue() {
      const at = now();
      const rows = await db.select().from(deployments).where(isNull(deployments.deletedAt));
      const broke = new Set<string>();
      for (const row of rows) {
        const balance = await charge(row, at);
        if (balance !== null && balance < MINIMUM_BALANCE_MICROS) broke.add(row.userId);
      }
      for (const userId of broke) await tearDown(userId);
    },

    sizes: () => provider.sizes(),
    /** Where deployments go. */
    target: provider.name,

    /** What the conversation's live deployments cost per hour together. */
    async hourlyCostMicros(userId: string, conversationId: string) {
      const rows = await live(userId, conversationId);
      return rows.reduce((sum, row) => sum + row.hourlyCostMicros, 0n);
    },

    /** After a restart: the provider brings back its live deployments; one that cannot come back is reported, not lost. */
    async restore(log: { error(details: object, message: string): void }) {
      if (!provider.restore) return;
      const rows = await db
        .select()
        .from(deployments)
        .where(and(eq(deployments.provider, provider.name), isNull(deployments.deletedAt)));
      for (const row of rows)
        await provider
          .restore(row.externalId)
          .catch((error: unknown) => log.error({ err: error, deployment: row.id }, 'a deployment did not come back'));
    },
  };
}

export type DeploymentsService = ReturnType<typeof createDeploymentsService>;
