/** Storage key of the bearer token, in localStorage or sessionStorage. */
export const TOKEN_KEY = 'atelier_token';

export interface TokenStore {
  read(): string | null;
  /** Keeps the token across browser restarts when `remember` is true, else for this tab's session; the other storage is cleared. */
  save(token: string, remember: boolean): void;
  clear(): void;
}

/** `key`: the application's token by default; the affiliate programme keeps its own (affiliator_token). */
export function createTokenStore(persistent: Storage, perSession: Storage, key = TOKEN_KEY): TokenStore {
  return {
    read: () => persistent.getItem(key) ?? perSession.getItem(key),
    save(token, remember) {
      const [keeping, clearing] = remember ? [persistent, perSession] : [perSession, persistent];
      clearing.removeItem(key);
      keeping.setItem(key, token);
    },
    clear() {
      persistent.removeItem(key);
      perSession.removeItem(key);
    },
  };
}
