import { z } from 'zod';
import type { BrowserState } from '../../runtime/types.ts';
import { BrowserCodeError, parseBrowserCode } from './browser-actions.ts';
import { securityRiskArgument, ToolInputError, truncateMiddle, zodTool, type ToolOutcome } from './tool.ts';

const PAGE_TEXT_LIMIT = 10_000;

const schema = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'Browser actions, one per line: goto("url"), click("css selector"), fill("css selector", "text"), scroll(dx, dy), screenshot(). ' +
        'Example:\ngoto("http://localhost:3000")\nfill("input[name=q]", "hello")\nclick("button[type=submit]")',
    ),
  security_risk: securityRiskArgument,
});

/** Actions that only load a page are the `browse` kind; anything interactive is `browse_interactive`. */
function isPlainNavigation(code: string): string | null {
  const actions = parseBrowserCode(code);
  const [first] = actions;
  return actions.length === 1 && first?.action === 'navigate' ? first.url : null;
}

function pageOutcome(kind: 'browse' | 'browse_interactive', code: string, state: BrowserState): ToolOutcome {
  return {
    observation: kind,
    content: `[Current URL: ${state.url}]\n[Title: ${state.title}]\n\n${truncateMiddle(state.text, PAGE_TEXT_LIMIT)}`,
    message: `Browsing ${state.url}`,
    extras: {
      url: state.url,
      screenshot: state.screenshot,
      title: state.title,
      last_browser_action: code,
      error: false,
    },
  };
}

export const browser = zodTool({
  name: 'browser',
  description:
    'Use a headless Chromium: open pages (including the apps you serve on the workspace ports), click, fill in forms, scroll and take screenshots. ' +
    'The result is the visible text of the page after the last action, and a screenshot the user sees.',
  actionKind: 'browse_interactive',
  schema: schema.superRefine((input, context) => {
    try {
      parseBrowserCode(input.code);
    } catch (error) {
      if (!(error instanceof BrowserCodeError)) throw error;
      context.addIssue({ code: 'custom', path: ['code'], message: error.message });
    }
  }),
  describe(input) {
    const url = isPlainNavigation(input.code);
    if (url !== null) return { action: 'browse', message: `Browsing ${url}`, args: { url } };
    return {
      action: 'browse_interactive',
      message: 'Interacting with the browser',
      args: { browser_actions: input.code },
    };
  },
  async run(input, { runtime }): Promise<ToolOutcome> {
    const kind = isPlainNavigation(input.code) === null ? 'browse_interactive' : 'browse';
    let state: BrowserState | undefined;
    for (const action of parseBrowserCode(input.code)) {
      try {
        state = await runtime.browse(action);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return {
          observation: 'error',
          content: `The browser action ${JSON.stringify(action)} failed: ${reason}`,
          extras: {},
          error: true,
        };
      }
    }
    if (!state) throw new ToolInputError('The browser code has no action.');
    return pageOutcome(kind, input.code, state);
  },
});
