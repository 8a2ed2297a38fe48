import { withSnapshot, type CommandResult, type RuntimeSession } from '../../runtime/types.ts';
import type { NewEvent } from './events.ts';
import type { Event } from '../../../openapi/types.ts';

/**
 * Seconds a terminal-tab command may take before its output so far is answered with exit
 * code -1 (still running): the tab must show something, and a server the user started keeps
 * running in the shell the agent shares.
 */
const TERMINAL_TIMEOUT_SECONDS = 10;

/** What the terminal knows between commands: whether the last one was left running. */
export interface TerminalState {
  running: boolean;
}

/**
 * Runs a user `run` event in the conversation's shell and answers the `run` observation to
 * record. While a command is still running, what the user types is its input (a REPL, a
 * prompt); the shell refuses the wrong kind without running anything, so a refusal (the
 * command ended meanwhile, or the agent left one running) is retried once the other way.
 */
export async function runUserCommand(session: RuntimeSession, action: Event, state: TerminalState): Promise<NewEvent> {
  const command = action.args?.command ?? '';
  const hidden = action.args?.hidden ?? false;
  const attempt = (isInput: boolean) =>
    session.runCommand({ command, isInput, timeoutSeconds: TERMINAL_TIMEOUT_SECONDS });
  try {
    let result: CommandResult;
    try {
      result = await attempt(state.running);
    } catch {
      result = await attempt(!state.running);
    }
    state.running = result.running;
    return {
      source: 'environment',
      observation: 'run',
      cause: action.id,
      content: result.output,
      message: `Command \`${command}\` executed with exit code ${result.exitCode}.`,
      extras: await withSnapshot(session, action.id, {
        command,
        hidden,
        metadata: { exit_code: result.exitCode, working_dir: result.cwd },
      }),
    };
  } catch (error) {
    return {
      source: 'environment',
      observation: 'error',
      cause: action.id,
      content: (error as Error).message,
      message: `Command \`${command}\` could not run: ${(error as Error).message}`,
      extras: { command, hidden },
    };
  }
}
