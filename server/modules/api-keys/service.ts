import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { NotFound, ValidationFailure } from '../../shared/domain-errors.ts';
import { createApiKeysStore, type ApiKeyRow } from './store.ts';

/** Every key starts so; it tells an API key from a session token at a glance (and to secret scanners). */
export const API_KEY_PREFIX = 'atl_';
/** How much of a key the list shows: the marker and 8 random characters. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** last_used_at is kept to the minute: a busy script must not write on every request. */
const LAST_USED_PRECISION_MS = 60_000;

const shown = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * The id of the user an API key stands for, or null when it is unknown or revoked; notes the use.
 * A key can do whatever its user can (including managing keys), like the user's own sign-in.
 */
export async function apiKeyOwner(db: Db, keyHash: string): Promise<string | null> {
  const store = createApiKeysStore(db);
  const row = await store.byHash(keyHash);
  if (!row) return null;
  const now = new Date();
  await store.noteUse(row.keyId, now, new Date(now.getTime() - LAST_USED_PRECISION_MS));
  return row.userId;
}

export interface ApiKeysDeps {
  newKey: () => string;
  hashKey: (key: string) => string;
  userChanged: (userId: string) => Promise<void>;
}

/**
 * API keys of the hosted service. `newKey` and `hashKey` are the auth module's token makers;
 * `userChanged` tells every node to forget the user's cached sign-ins, so a revoked key stops
 * working at once everywhere.
 */
export function createApiKeysService(db: Db, deps: ApiKeysDeps) {
  const store = createApiKeysStore(db);
  return {
    async list(userId: string) {
      return (await store.list(userId)).map(shown);
    },

    async create(userId: string, rawName: string) {
      const name = rawName.trim();
      if (!name) throw new ValidationFailure([{ loc: ['body', 'name'], msg: 'Name is required', type: 'value_error' }]);
      const key = `${API_KEY_PREFIX}${deps.newKey()}`;
      const row = await store.insert({
        id: randomUUID(),
        userId,
        name,
        prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        keyHash: deps.hashKey(key),
      });
      return { ...shown(row), key };
    },

    async revoke(userId: string, keyId: string) {
      const revoked = await store.revoke(userId, keyId);
      if (revoked.length === 0) throw new NotFound('API key not found');
      await deps.userChanged(userId);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
