/** Storage key of the bearer token, in localStorage or sessionStorage. */
export const TOKEN_KEY = 'atelier_token';

export interface TokenStore {
  read(): string | null;
  /** Keeps the token across browser restarts when `remember` is true, else for this tab's session; the other storage is cleared. */
  save(token: string, remember: boolean): void;
  clear(): void;
}

export function createTokenStore(persistent: Storage, perSession: Storage): TokenStore {
  return {
    read: () => persistent.getItem(TOKEN_KEY) ?? perSession.getItem(TOKEN_KEY),
    save(token, remember) {
      const [keeping, clearing] = remember ? [persistent, perSession] : [perSession, persistent];
      clearing.removeItem(TOKEN_KEY);
      keeping.setItem(TOKEN_KEY, token);
    },
    clear() {
      persistent.removeItem(TOKEN_KEY);
      perSession.removeItem(TOKEN_KEY);
    },
  };
}
