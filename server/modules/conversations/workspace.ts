import type { Config } from '../../config.ts';
import type { RuntimeSession } from '../../runtime/types.ts';
import { Conflict, InvalidInput, NotFound, TooLarge, Unavailable } from '../../shared/domain-errors.ts';
import type { EventStore } from './events.ts';
import type { AppProxy } from './app-proxy.ts';
import type { ConversationManager } from './manager.ts';
import { readMicroagents } from '../../agent/recall/microagents.ts';
import { viaRuntime } from './runtime-errors.ts';
import type { ConversationRow } from './store.ts';
import { startCommand, type ServedApp } from '../../runtime/served-apps.ts';
import { TooManyTerminalsError, type TerminalSize, type UserTerminal } from '../../runtime/user-terminals.ts';
import { receiveUpload, storeFiles, type MultipartParts } from './upload.ts';

const terminalOf = (terminal: UserTerminal) => ({ id: terminal.id, exited: terminal.exited });

/** A new user terminal; 409 past the limit. */
function startTerminal(running: RuntimeSession, size: TerminalSize): UserTerminal {
  try {
    return running.terminals.start(size);
  } catch (error) {
    throw error instanceof TooManyTerminalsError ? new Conflict(error.message) : error;
  }
}

/** The remembered apps whose port serves nothing now, with the command that starts each on its port of today. */
function stoppedApps(remembered: readonly ServedApp[], running: RuntimeSession, served: readonly number[]) {
  return remembered.flatMap((app) => {
    const port = running.ports[app.slot];
    return port === undefined || served.includes(port) ? [] : [{ port, command: startCommand(app, port) }];
  });
}

/** The built-in editor opens files up to this size; bigger ones are answered with 413. */
const EDITOR_LIMIT_CHARS = 5 * 1024 * 1024;

/**
 * The per-conversation calls: they work on the real workspace through the runtime session,
 * which lives on the node that runs the conversation (503 elsewhere, or while stopped).
 */
export function createWorkspaceCalls(deps: {
  config: Config;
  events: EventStore;
  manager: ConversationManager;
  apps: Pick<AppProxy, 'links'>;
}) {
  const { config, events, manager, apps } = deps;

  function session(row: ConversationRow): RuntimeSession {
    const found = manager.session(row.id);
    if (found) return found;
    if (row.status === 'STOPPED') throw new Unavailable('The conversation is not running; start it first.');
    if (row.ownerNode && row.status === 'RUNNING')
      throw new Unavailable('The runtime of this conversation runs on another server.');
    throw new Unavailable('The runtime is starting; try again in a moment.');
  }

  return {
    async zip(row: ConversationRow) {
      return Buffer.from(await session(row).zip());
    },

    /**
     * The served apps: the reserved ports something listens on now (so the browser need not
     * probe them), as the owner's links through the app proxy at the host name their browser
     * reached Atelier by; where apps listen on the host's ports themselves (no network namespace), their addresses.
     */
    async webHosts(row: ConversationRow, pageHost: string) {
      const running = manager.session(row.id);
      if (!running) return { hosts: [], stopped_apps: [] };
      const served = await running.servedPorts();
      const remembered = served.length > 0 ? await manager.rememberServedApps(row.id, running) : row.servedApps;
      const stopped_apps = stoppedApps(remembered, running, served);
      if (!running.proxiedApps) return { hosts: await running.servedHosts(), stopped_apps };
      return { hosts: apps.links(row.id, row.userId, served, pageHost), stopped_apps };
    },

    /** Starts each stopped app in a terminal of the user's, as it ran before (no model call). */
    async startServedApps(row: ConversationRow) {
      const running = session(row);
      const stopped = stoppedApps(row.servedApps, running, await running.servedPorts());
      if (stopped.length === 0) throw new Conflict('No app to start again: every port that served one serves it now.');
      const started = stopped.map(({ command }) => {
        const terminal = startTerminal(running, { cols: 120, rows: 30 });
        terminal.write(`${command}\r`);
        return terminalOf(terminal);
      });
      return { terminals: started };
    },

    /** The external VS Code server, opened on this workspace's folder when it runs here. */
    vscodeUrl(row: ConversationRow) {
      if (!config.vscodeUrl) return { vscode_url: null };
      const running = manager.session(row.id);
      if (!running) return { vscode_url: config.vscodeUrl };
      const url = new URL(config.vscodeUrl);
      url.searchParams.set('folder', running.workspaceDir);
      return { vscode_url: url.toString() };
    },

    /** One runtime per conversation: its id is the conversation's while it runs. */
    runtimeConfig(row: ConversationRow) {
      const running = manager.session(row.id) !== null;
      return { runtime_id: running ? row.id : null, session_id: running ? row.id : null };
    },

    async trajectory(row: ConversationRow) {
      return { trajectory: await events.all(row.id) };
    },

    gitChanges: (row: ConversationRow) => viaRuntime(() => session(row).gitChanges()),

    gitDiff: (row: ConversationRow, path: string) => viaRuntime(() => session(row).gitDiff(path), path),

    async microagents(row: ConversationRow) {
      const found = await viaRuntime(() => readMicroagents(session(row), '.'));
      return { microagents: found.map(({ microagent }) => microagent) };
    },

    async rememberPrompt(row: ConversationRow, eventId: number) {
      const event = await events.get(row.id, eventId);
      if (!event) throw new NotFound('Event not found');
      const what = event.content ?? event.args?.content ?? event.message ?? '';
      return {
        prompt:
          `Event ${eventId} of this conversation said:\n\n${what}\n\n` +
          'Please remember what this taught us for future work in this repository: add it to a microagent in ' +
          '.openhands/microagents/ (repo.md for knowledge that always applies, or a knowledge microagent with trigger words ' +
          'for a specific topic). Keep it short and specific, then tell me what you stored.',
      };
    },

    listFiles: (row: ConversationRow, path: string | undefined) =>
      viaRuntime(() => session(row).listFiles(path || undefined), path),

    async selectFile(row: ConversationRow, file: string) {
      let code: string;
      try {
        code = await viaRuntime(() => session(row).readFile(file), file);
      } catch (error) {
        // V8 cannot hold a string that long: the file is far beyond the editor anyway.
        if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG')
          throw new TooLarge(`${file} is too large for the editor`);
        throw error;
      }
      if (code.includes('\0') || code.includes('\uFFFD')) throw new InvalidInput(`${file} is a binary file`);
      if (code.length > EDITOR_LIMIT_CHARS) throw new TooLarge(`${file} is too large for the editor (over 5 MB)`);
      return { code };
    },

    terminals(row: ConversationRow) {
      return { terminals: session(row).terminals.list().map(terminalOf) };
    },

    openTerminal(row: ConversationRow, size: TerminalSize) {
      return terminalOf(startTerminal(session(row), size));
    },

    async closeTerminal(row: ConversationRow, terminalId: string) {
      if (!(await session(row).terminals.close(terminalId))) throw new NotFound('No such terminal');
      return { success: true };
    },

    async saveFile(row: ConversationRow, path: string, content: string) {
      await viaRuntime(() => session(row).writeFile(path, content), path);
      return { success: true };
    },

    /** Stores the uploaded files; with `send_message`, the agent then gets a message naming them. */
    async upload(row: ConversationRow, parts: MultipartParts | null) {
      const running = session(row);
      return receiveUpload(parts, config.dataDir, async (form) => {
        const uploaded = await storeFiles(running, form);
        if (form.sendMessage && uploaded.length) {
          const content = [form.messageContent.trim(), `Uploaded files: ${uploaded.join(', ')}`]
            .filter(Boolean)
            .join('\n\n');
          await manager.handle(row, {
            action: 'message',
            args: { content, image_urls: form.imageUrls, file_urls: uploaded },
          });
        }
        return { uploaded_files: uploaded, skipped_files: form.skipped };
      });
    },
  };
}

export type WorkspaceCalls = ReturnType<typeof createWorkspaceCalls>;
