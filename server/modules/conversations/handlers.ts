import { PAGE_HOST_HEADER, RawResponse, requireUser, type Handlers } from '../../shared/operations.ts';
import type { EventStore } from './events.ts';
import type { ConversationService } from './service.ts';
import type { WorkspaceCalls } from './workspace.ts';

/**
 * The calls that need the conversation's runtime, which lives on the node that runs it: the
 * HTTP layer forwards them there when they arrive at another node.
 */
export const RUNTIME_OPERATIONS: ReadonlySet<string> = new Set([
  'downloadWorkspaceZip',
  'getWebHosts',
  'getVscodeUrl',
  'getRuntimeConfig',
  'getGitChanges',
  'getGitDiff',
  'getConversationMicroagents',
  'listFiles',
  'selectFile',
  'saveFile',
  'uploadFiles',
  'forkConversation',
  'listTerminals',
  'openTerminal',
  'closeTerminal',
  'startServedApps',
]);

/** The host (and port) the caller's browser reached Atelier by: kept by the node that forwarded the call. */
function pageHost(headers: Record<string, string | string[] | undefined>): string {
  const value = headers[PAGE_HOST_HEADER] ?? headers.host;
  return (Array.isArray(value) ? value[0] : value) || 'localhost';
}

/** Binds the contract's conversation operations to the service and the workspace calls. */
export function conversationHandlers(
  service: ConversationService,
  workspace: WorkspaceCalls,
  events: EventStore,
): Handlers {
  /** The caller's conversation of the path (404 for anyone else's). */
  const row = (ctx: { user: Parameters<typeof requireUser>[0]['user']; params: { conversation_id: string } }) =>
    service.owned(requireUser(ctx), ctx.params.conversation_id);

  return {
    listConversations: async (ctx) => service.list(requireUser(ctx), ctx.query),
    createConversation: async (ctx) => service.create(requireUser(ctx), ctx.body),
    getConversation: async (ctx) => service.view(await row(ctx)),
    updateConversation: async (ctx) => service.rename(requireUser(ctx), ctx.params.conversation_id, ctx.body.title),
    deleteConversation: async (ctx) => {
      await service.remove(requireUser(ctx), ctx.params.conversation_id);
      return { success: true };
    },
    startConversation: async (ctx) =>
      service.start(requireUser(ctx), ctx.params.conversation_id, ctx.body?.providers_set),
    stopConversation: async (ctx) => service.stop(requireUser(ctx), ctx.params.conversation_id),
    forkConversation: async (ctx) => service.fork(requireUser(ctx), ctx.params.conversation_id, ctx.body),
    listEvents: async (ctx) => {
      const conversation = await row(ctx);
      return events.page(conversation.id, ctx.query.before_id ?? null, ctx.query.limit ?? 50);
    },
    downloadWorkspaceZip: async (ctx) =>
      new RawResponse(200, await workspace.zip(await row(ctx)), {
        'content-type': 'application/zip',
        'content-disposition': 'attachment; filename="workspace.zip"',
      }),
    getWebHosts: async (ctx) => workspace.webHosts(await row(ctx), pageHost(ctx.headers)),
    getVscodeUrl: async (ctx) => workspace.vscodeUrl(await row(ctx)),
    getRuntimeConfig: async (ctx) => workspace.runtimeConfig(await row(ctx)),
    getTrajectory: async (ctx) => workspace.trajectory(await row(ctx)),
    getGitChanges: async (ctx) => workspace.gitChanges(await row(ctx)),
    getGitDiff: async (ctx) => workspace.gitDiff(await row(ctx), ctx.query.path),
    getConversationMicroagents: async (ctx) => workspace.microagents(await row(ctx)),
    getRememberPrompt: async (ctx) => workspace.rememberPrompt(await row(ctx), ctx.query.event_id),
    listFiles: async (ctx) => workspace.listFiles(await row(ctx), ctx.query.path),
    selectFile: async (ctx) => workspace.selectFile(await row(ctx), ctx.query.file),
    saveFile: async (ctx) => workspace.saveFile(await row(ctx), ctx.body.path, ctx.body.content),
    uploadFiles: async (ctx) => workspace.upload(await row(ctx), ctx.parts),
    listTerminals: async (ctx) => workspace.terminals(await row(ctx)),
    openTerminal: async (ctx) => new RawResponse(201, await workspace.openTerminal(await row(ctx), ctx.body)),
    startServedApps: async (ctx) => workspace.startServedApps(await row(ctx)),
    closeTerminal: async (ctx) => workspace.closeTerminal(await row(ctx), ctx.params.terminal_id),
  };
}
