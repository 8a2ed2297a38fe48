import { beforeEach, describe, expect, it } from 'vitest';
import { createTokenStore, TOKEN_KEY } from './token-store.ts';

describe('token store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  const store = () => createTokenStore(localStorage, sessionStorage);

  it('keeps a remembered token in localStorage only', () => {
    sessionStorage.setItem(TOKEN_KEY, 'older');
    store().save('remembered', true);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('remembered');
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(store().read()).toBe('remembered');
  });

  it('keeps a token that is not remembered in sessionStorage only', () => {
    localStorage.setItem(TOKEN_KEY, 'older');
    store().save('this-tab', false);
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe('this-tab');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(store().read()).toBe('this-tab');
  });

  it('reads nothing when no token is stored', () => {
    expect(store().read()).toBeNull();
  });

  it('clears both storages', () => {
    localStorage.setItem(TOKEN_KEY, 'a');
    sessionStorage.setItem(TOKEN_KEY, 'b');
    store().clear();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(store().read()).toBeNull();
  });
});
