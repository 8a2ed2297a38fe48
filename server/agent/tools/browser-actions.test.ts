import { describe, expect, it } from 'vitest';
import { BrowserCodeError, parseBrowserCode } from './browser-actions.ts';

describe('parseBrowserCode', () => {
  it('reads one action per line, skipping blank lines and comments', () => {
    const code = `# open the app\ngoto("http://localhost:3000/login")\n\nfill('#email', "a@b.c")\nclick("button[type=submit]")\nscroll(0, 400)\nscroll(-200)\nscreenshot()`;
    expect(parseBrowserCode(code)).toEqual([
      { action: 'navigate', url: 'http://localhost:3000/login' },
      { action: 'type', selector: '#email', text: 'a@b.c' },
      { action: 'click', selector: 'button[type=submit]' },
      { action: 'scroll', dx: 0, dy: 400 },
      { action: 'scroll', dy: -200 },
      { action: 'screenshot' },
    ]);
  });

  it('understands escapes and commas inside strings', () => {
    expect(parseBrowserCode(String.raw`fill("textarea", "line one\nsaid \"hi, there\"")`)).toEqual([
      { action: 'type', selector: 'textarea', text: 'line one\nsaid "hi, there"' },
    ]);
  });

  it.each([
    ['go_back()', /go_back is not a browser action/],
    ['goto(http://x)', /quoted strings and numbers/],
    ['click("#a", "#b")', /click takes \(string\)/],
    ['scroll("down")', /scroll takes \(number\)/],
    ['fill("#a" "b")', /Expected a comma/],
    ['goto("http://x', /not a call|Unterminated/],
    ['open the page', /not a call/],
    ['# nothing to do', /no action/],
  ])('rejects %s with a message the model can act on', (code, message) => {
    expect(() => parseBrowserCode(code)).toThrow(BrowserCodeError);
    expect(() => parseBrowserCode(code)).toThrow(message);
  });
});
