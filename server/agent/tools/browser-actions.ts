import type { BrowserAction } from '../../runtime/types.ts';

/**
 * The browser tool's little language: one BrowserGym-style call per line, as OpenHands agents
 * write them — `goto("https://…")`, `click("#submit")`, `fill("input[name=q]", "text")`,
 * `scroll(0, 400)`, `screenshot()`. Lines starting with # are comments. Arguments are string
 * literals (single or double quotes, backslash escapes) or numbers.
 */

export class BrowserCodeError extends Error {
  override name = 'BrowserCodeError';
}

type Argument = string | number;

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };

function parseArguments(text: string, line: string): Argument[] {
  const args: Argument[] = [];
  let index = 0;
  const skipSpaces = () => {
    while (index < text.length && /\s/.test(text[index] ?? '')) index++;
  };
  skipSpaces();
  while (index < text.length) {
    const quote = text[index];
    if (quote === '"' || quote === "'") {
      let value = '';
      index++;
      while (index < text.length && text[index] !== quote) {
        const char = text[index] ?? '';
        if (char === '\\') {
          const next = text[index + 1] ?? '';
          value += ESCAPES[next] ?? next;
          index += 2;
        } else {
          value += char;
          index++;
        }
      }
      if (text[index] !== quote) throw new BrowserCodeError(`Unterminated string in \`${line}\`.`);
      index++;
      args.push(value);
    } else {
      const number = /^-?\d+(?:\.\d+)?/.exec(text.slice(index));
      if (!number)
        throw new BrowserCodeError(`Cannot read the arguments of \`${line}\`: use quoted strings and numbers.`);
      args.push(Number(number[0]));
      index += number[0].length;
    }
    skipSpaces();
    if (index < text.length) {
      if (text[index] !== ',') throw new BrowserCodeError(`Expected a comma between the arguments of \`${line}\`.`);
      index++;
      skipSpaces();
    }
  }
  return args;
}

function expectArguments(name: string, args: Argument[], kinds: ('string' | 'number')[], line: string): void {
  const ok = args.length === kinds.length && args.every((arg, i) => typeof arg === kinds[i]);
  if (!ok) throw new BrowserCodeError(`\`${line}\`: ${name} takes (${kinds.join(', ')}).`);
}

function toAction(name: string, args: Argument[], line: string): BrowserAction {
  switch (name) {
    case 'goto':
      expectArguments(name, args, ['string'], line);
      return { action: 'navigate', url: args[0] as string };
    case 'click':
      expectArguments(name, args, ['string'], line);
      return { action: 'click', selector: args[0] as string };
    case 'fill':
      expectArguments(name, args, ['string', 'string'], line);
      return { action: 'type', selector: args[0] as string, text: args[1] as string };
    case 'scroll':
      if (args.length === 1) {
        expectArguments(name, args, ['number'], line);
        return { action: 'scroll', dy: args[0] as number };
      }
      expectArguments(name, args, ['number', 'number'], line);
      return { action: 'scroll', dx: args[0] as number, dy: args[1] as number };
    case 'screenshot':
      expectArguments(name, args, [], line);
      return { action: 'screenshot' };
    default:
      throw new BrowserCodeError(
        `\`${line}\`: ${name} is not a browser action. Use goto, click, fill, scroll or screenshot.`,
      );
  }
}

export function parseBrowserCode(code: string): BrowserAction[] {
  const actions = code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const call = /^([a-z_]+)\s*\((.*)\)\s*;?$/s.exec(line);
      if (!call) throw new BrowserCodeError(`\`${line}\` is not a call such as goto("https://example.com").`);
      return toAction(call[1] ?? '', parseArguments(call[2] ?? '', line), line);
    });
  if (actions.length === 0) throw new BrowserCodeError('The browser code has no action.');
  return actions;
}
