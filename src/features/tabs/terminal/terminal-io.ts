import type { Event } from '../../../../openapi/types.ts';

// What the terminal prints and what it sends. Typed keys are edited locally into a line (echoed,
// Backspace removes, Ctrl+C drops the line); Enter sends the line as a `run` command. Commands
// (the agent's, and on first display the user's own) and the output of every `run` observation
// come back from the stream.

export const PROMPT = '$ ';

export interface LineEdit {
  /** What to write to the terminal now. */
  echo: string;
  /** Complete lines to send as commands. */
  commands: string[];
}

export interface LineEditor {
  /** Feeds typed or pasted data (xterm's onData). */
  input(data: string): LineEdit;
}

export function createLineEditor(): LineEditor {
  let line = '';
  return {
    input(data) {
      // Arrow keys and other escape sequences have no meaning in a line editor without history.
      if (data.startsWith('\x1b')) return { echo: '', commands: [] };
      let echo = '';
      const commands: string[] = [];
      for (const char of data) {
        if (char === '\r' || char === '\n') {
          echo += '\r\n';
          if (line.trim() !== '') commands.push(line);
          line = '';
        } else if (char === '\x7f' || char === '\b') {
          if (line.length > 0) {
            line = line.slice(0, -1);
            echo += '\b \b';
          }
        } else if (char === '\x03') {
          echo += '^C\r\n';
          line = '';
        } else if (char >= ' ') {
          line += char;
          echo += char;
        }
      }
      return { echo, commands };
    },
  };
}

/** Terminal text uses CRLF line ends. */
export const toTerminalText = (text: string) => text.replace(/\r?\n/g, '\r\n');

/**
 * What an event adds to the terminal: a `run` action's command after the prompt, a `run`
 * observation's output. The user's own commands were echoed as they were typed; only history
 * (events already there when the terminal opened) prints them again.
 */
export function terminalText(event: Event, fromHistory: boolean): string {
  if (event.action === 'run') {
    if (event.source === 'user' && !fromHistory) return '';
    return `${PROMPT}${toTerminalText(event.args?.command ?? '')}\r\n`;
  }
  if (event.observation === 'run') {
    const output = toTerminalText(event.content ?? '');
    return output === '' || output.endsWith('\r\n') ? output : `${output}\r\n`;
  }
  return '';
}
