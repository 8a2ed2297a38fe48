import type { AuthUser } from '../../shared/operations.ts';

/** How long a sign-in is trusted without reading the database again, should a notice be lost. */
export const SESSION_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  user: AuthUser;
  /** The earlier of the cache's TTL and the session's own expiry. */
  until: number;
}

/**
 * Recent bearer-token lookups, so an authenticated read costs no query for them. Logout,
 * revocation and changes to an account forget that user's entries on every node (the event
 * bus carries the notice); anything else is read again after SESSION_CACHE_TTL_MS.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  get(tokenHash: string): AuthUser | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (entry.until > this.now()) return entry.user;
    this.entries.delete(tokenHash);
    return null;
  }

  set(tokenHash: string, user: AuthUser, sessionExpiresAt: Date) {
    // Maps iterate in insertion order: the first key is the oldest entry.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(tokenHash, {
      user,
      until: Math.min(this.now() + SESSION_CACHE_TTL_MS, sessionExpiresAt.getTime()),
    });
  }

  forgetUser(userId: string) {
    for (const [tokenHash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(tokenHash);
  }

  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}
