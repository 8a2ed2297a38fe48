import { describe, expect, it } from 'vitest';
import {
  actionForShortcut,
  ariaKeyShortcut,
  actionsOf,
  shortcutOf,
  WORKSPACE_ACTIONS,
  type WorkspaceFacts,
  shortcutLabel,
} from './workspace-actions.ts';

const facts = (over: Partial<WorkspaceFacts> = {}): WorkspaceFacts => ({
  canStart: false,
  canStop: true,
  canRestart: true,
  canPush: false,
  deployed: { staging: false, production: false },
  ...over,
});
const enabledIds = (given: WorkspaceFacts) =>
  WORKSPACE_ACTIONS.filter((action) => action.enabled(given)).map((action) => action.id);
const key = (
  code: string,
  modifiers: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {},
) => ({
  code,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('workspace actions', () => {
  it('have one id each, and every action that waits for a deployment says why', () => {
    const ids = WORKSPACE_ACTIONS.map((action) => action.id);
    expect(new Set(ids).size).toBe(ids.length);
    const waiting = WORKSPACE_ACTIONS.filter((action) => !action.enabled(facts({ canStart: true, canPush: true })));
    expect(waiting.map((action) => action.id)).toEqual(['app-staging', 'app-production']);
    for (const action of waiting) expect(action.disabledNote).toBe('menu.appNotDeployed');
  });

  it('enable App → Staging and Production when the DevOps agent deployed that environment', () => {
    expect(enabledIds(facts({ deployed: { staging: true, production: false } }))).toContain('app-staging');
    expect(enabledIds(facts({ deployed: { staging: true, production: false } }))).not.toContain('app-production');
    expect(enabledIds(facts({ deployed: { staging: false, production: true } }))).toContain('app-production');
  });

  it('enable Start only for a stopped conversation, Stop and Restart as the conversation machine says, Push with a repository', () => {
    expect(enabledIds(facts())).not.toContain('start');
    expect(enabledIds(facts({ canStart: true, canStop: false }))).toEqual(expect.arrayContaining(['start']));
    expect(enabledIds(facts({ canStart: true, canStop: false }))).not.toContain('stop');
    expect(enabledIds(facts({ canRestart: false }))).not.toContain('restart');
    expect(enabledIds(facts())).not.toContain('push');
    expect(enabledIds(facts({ canPush: true }))).toContain('push');
  });

  it('list the Window menu in the spec order, the web app (the spec\'s "served") by its tab\'s name', () => {
    expect(actionsOf('window').map((action) => action.label)).toEqual([
      'tabs.chat',
      'tabs.vscode',
      'tabs.terminal',
      'tabs.jupyter',
      'tabs.browser',
      'tabs.app',
      'tabs.changes',
      'tabs.devopsAgent',
    ]);
  });

  it('find an enabled action by its shortcut, whatever the keyboard layout calls the key', () => {
    expect(shortcutOf(key('KeyM', { altKey: true, shiftKey: true }))).toBe('Alt+Shift+M');
    expect(actionForShortcut(key('KeyM', { altKey: true, shiftKey: true }), facts())?.id).toBe('maximise');
    expect(actionForShortcut(key('KeyM', { altKey: true }), facts())).toBeNull();
    expect(actionForShortcut(key('KeyM'), facts())).toBeNull();
  });

  it('tile from the keyboard: focus and move between tiles, cycle tabs, and ? lists them all — but ? typed in a field is text', () => {
    const byKeys = (code: string, modifiers: Parameters<typeof key>[1], typing = false) =>
      actionForShortcut({ ...key(code, modifiers), typing }, facts())?.id ?? null;
    expect(byKeys('ArrowRight', { altKey: true, shiftKey: true })).toBe('focus-next-tile');
    expect(byKeys('ArrowLeft', { altKey: true, shiftKey: true })).toBe('focus-previous-tile');
    expect(byKeys('ArrowRight', { ctrlKey: true, altKey: true, shiftKey: true })).toBe('move-tab-next');
    expect(byKeys('BracketLeft', { altKey: true, shiftKey: true })).toBe('previous-tab');
    expect(byKeys('Slash', { shiftKey: true })).toBe('shortcuts');
    expect(byKeys('Slash', { shiftKey: true }, true)).toBeNull();
    expect(byKeys('ArrowRight', { altKey: true, shiftKey: true }, true)).toBe('focus-next-tile');
    const shortcuts = WORKSPACE_ACTIONS.flatMap((action) => (action.shortcut ? [action.shortcut] : []));
    expect(new Set(shortcuts).size).toBe(shortcuts.length);
  });

  it('shows shortcuts as people read them', () => {
    expect(shortcutLabel('Alt+Shift+ArrowRight')).toBe('Alt+Shift+→');
    expect(shortcutLabel('Ctrl+Alt+Shift+ArrowLeft')).toBe('Ctrl+Alt+Shift+←');
    expect(shortcutLabel('Alt+Shift+BracketRight')).toBe('Alt+Shift+]');
    expect(shortcutLabel('Shift+Slash')).toBe('?');
    expect(shortcutLabel('Alt+Shift+M')).toBe('Alt+Shift+M');
  });

  it('names shortcuts for aria-keyshortcuts with the key values of UI Events', () => {
    expect(ariaKeyShortcut('Ctrl+Alt+Shift+ArrowLeft')).toBe('Control+Alt+Shift+ArrowLeft');
    expect(ariaKeyShortcut('Alt+Shift+BracketRight')).toBe('Alt+Shift+]');
    expect(ariaKeyShortcut('Shift+Slash')).toBe('?');
    expect(ariaKeyShortcut('Alt+Shift+M')).toBe('Alt+Shift+M');
  });
});
