import type { RuntimeSession } from '../../runtime/types.ts';
import type { Event, NewEvent } from './events.ts';

/**
 * Seconds a terminal-tab command may take before its output so far is answered with exit
 * code -1 (still running): the tab must show something, and a server the user started keeps
 * running in the shell the agent shares.
 */
const TERMINAL_TIMEOUT_SECONDS = 10;

/** Runs a user `run` event in the conversation's shell; answers the `run` observation to record. */
export async function runUserCommand(session: RuntimeSession, action: Event): Promise<NewEvent> {
  const command = action.args?.command ?? '';
  const hidden = action.args?.hidden ?? false;
  try {
    const result = await session.runCommand({ command, timeoutSeconds: TERMINAL_TIMEOUT_SECONDS });
    return {
      source: 'environment',
      observation: 'run',
      cause: action.id,
      content: result.output,
      message: `Command \`${command}\` executed with exit code ${result.exitCode}.`,
      extras: { command, hidden, metadata: { exit_code: result.exitCode, working_dir: result.cwd } },
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
