import { describe, expect, it } from 'vitest';
import { homeEnterIntent, promptText, workspaceLocation } from './prompt.ts';

const key = (overrides: Partial<Parameters<typeof homeEnterIntent>[0]> = {}) => ({
  key: 'Enter',
  shiftKey: false,
  isComposing: false,
  keyCode: 13,
  ...overrides,
});

describe('home prompt', () => {
  it('submits the trimmed text, nothing when blank', () => {
    expect(promptText('  Build a todo app \n')).toBe('Build a todo app');
    expect(promptText(' \n\t')).toBeNull();
  });

  it('sends on Enter, leaves Shift+Enter a newline and ignores Enter while composing', () => {
    expect(homeEnterIntent(key())).toBe('send');
    expect(homeEnterIntent(key({ shiftKey: true }))).toBe('newline');
    expect(homeEnterIntent(key({ isComposing: true }))).toBe('ignore');
    expect(homeEnterIntent(key({ keyCode: 229 }))).toBe('ignore');
    expect(homeEnterIntent(key({ key: 'a' }))).toBeNull();
  });

  it('opens the workspace with the prompt as temp_message', () => {
    expect(workspaceLocation('abc', 'hi')).toEqual({
      to: '/experiment/conversations/$conversationId',
      params: { conversationId: 'abc' },
      search: { temp_message: 'hi' },
    });
  });

  it('opens the workspace without a message when there is no prompt', () => {
    expect(workspaceLocation('abc', null).search).toEqual({});
  });
});
