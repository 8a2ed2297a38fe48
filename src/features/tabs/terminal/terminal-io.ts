import type { Event } from '../../../../openapi/types.ts';

// What the Terminal tab's Agent view prints: every command run in the agent's shell (the
// agent's, and `run` actions other clients send) after a prompt, and the output of each.

export const PROMPT = '$ ';

/** Terminal text uses CRLF line ends. */
export const toTerminalText = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** What an event adds to the Agent view: a `run` action's command after the prompt, a `run` observation's output. */
export function terminalText(event: Event): string {
  if (event.action === 'run') return `${PROMPT}${toTerminalText(event.args?.command ?? '')}\r\n`;
  if (event.observation === 'run') {
    const output = toTerminalText(event.content ?? '');
    return output === '' || output.endsWith('\r\n') ? output : `${output}\r\n`;
  }
  return '';
}
