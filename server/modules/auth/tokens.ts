import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the bearer token the client keeps. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps instead of the token. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const TOKEN_LIFETIME_MS = { rememberMe: 30 * 24 * 3600_000, session: 12 * 3600_000 } as const;
