import type { AgentFactory } from '../../agent/types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { Runtime } from '../../runtime/types.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { BALANCE_CHANGED, balanceMicros, chargeUsage } from '../credits/index.ts';
import type { SecretsService } from '../secrets/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { AppProxy } from './app-proxy.ts';
import { gitTokenVariables, prepareStart } from './environment.ts';
import { createEventStore } from './events.ts';
import { conversationHandlers } from './handlers.ts';
import { createInbox } from './inbox.ts';
import { ConversationManager } from './manager.ts';
import { createConversationService } from './service.ts';
import { createConversationStore } from './store.ts';
import { createWorkspaceCalls } from './workspace.ts';

export { UPLOAD_LIMIT_BYTES, receiveUpload, type MultipartParts, type UploadForm } from './upload.ts';
export { RUNTIME_OPERATIONS } from './handlers.ts';
export { conversationTitles, isUsersConversation } from './store.ts';

export interface ConversationsDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  bus: EventBus;
  runtime: Runtime;
  agentFactory: AgentFactory | undefined;
  settings: SettingsService;
  secrets: SecretsService;
  /** For requests made on the user's behalf (remote MCP servers): guarded in saas mode. */
  outboundFetch: typeof fetch;
  /** This server process among those sharing the database (owner of the conversations it runs). */
  nodeId: string;
  log: ConstructorParameters<typeof ConversationManager>[0]['log'];
}

export function createConversationsModule(deps: ConversationsDeps) {
  const { db, config, box } = deps;
  const conversations = createConversationStore(db);
  const apps = new AppProxy({ host: config.host, box, publicUrl: config.publicUrl, log: deps.log });
  const events = createEventStore(db);
  const manager = new ConversationManager({
    nodeId: deps.nodeId,
    nodeUrl: config.nodeUrl,
    leaseMs: config.conversationLeaseMs,
    conversations,
    events,
    inbox: createInbox(db),
    bus: deps.bus,
    runtime: deps.runtime,
    agentFactory: deps.agentFactory,
    outboundFetch: deps.outboundFetch,
    box,
    prepare: (row, providers) => prepareStart(row, providers, deps),
    gitTokens: (userId, providers) => gitTokenVariables(userId, providers, deps.settings),
    modelSettings: async (userId) => {
      const { llm, maxBudgetPerTask, confirmationMode, securityAnalyzer } = await deps.settings.forAgent(userId);
      return { llm, maxBudgetPerTask, confirmationMode, securityAnalyzer };
    },
    credits:
      config.appMode === 'saas'
        ? (userId, conversationId) => ({
            balance: () => balanceMicros(db, userId),
            charge: async (amountMicros, idempotencyKey) => {
              const balance = await chargeUsage(db, {
                userId,
                amountMicros,
                idempotencyKey,
                description: `Model usage in conversation ${conversationId}`,
                conversationId,
                category: 'llm',
                subcategory: 'chat',
              });
              // Committed: the user's open pages show the new balance without asking for it.
              void deps.bus.announce(BALANCE_CHANGED, userId);
              return balance;
            },
          })
        : null,
    apps,
    log: deps.log,
  });
  const service = createConversationService({ db, config, box, conversations, events, manager });
  const workspace = createWorkspaceCalls({ config, events, manager, apps });
  return { handlers: conversationHandlers(service, workspace, events), service, events, manager };
}
