import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { affiliateLinks, affiliates, affiliateSessions } from '../../db/schema.ts';
import { Conflict, NotAuthenticated, ValidationFailure } from '../../shared/domain-errors.ts';
import { RateLimiter, throttle } from '../rate-limits/index.ts';
import type { components } from '../../../openapi/schema.d.ts';
import { checkPassword, hashPassword, hashToken, newToken, TOKEN_LIFETIME_MS } from '../auth/index.ts';

type Registration = components['schemas']['AffiliateRegistrationRequest'];

export const INVALID_LOGIN = 'Invalid email or password.';
export const TAKEN_EMAIL = 'An affiliate account with this email already exists.';
export const INVALID_WHATSAPP = 'Please enter a valid WhatsApp number with its country code, e.g. +1 2025550123.';

export interface AffiliateAccountsDeps {
  rateLimit: { perIp: number; windowMs: number };
  now?: () => number;
}

/** Affiliate accounts (spec §4): registration, sign-in with tokens of their own, the record. */
export function createAffiliateAccounts(db: Db, deps: AffiliateAccountsDeps) {
  const now = deps.now ?? Date.now;
  const limits = {
    register: new RateLimiter(db, {
      name: 'affiliate-register',
      limit: deps.rateLimit.perIp,
      windowMs: deps.rateLimit.windowMs,
    }),
    login: new RateLimiter(db, {
      name: 'affiliate-login',
      limit: deps.rateLimit.perIp,
      windowMs: deps.rateLimit.windowMs,
    }),
  };
  const findByEmail = async (email: string) =>
    (
      await db
        .select()
        .from(affiliates)
        .where(sql`lower(${affiliates.email}) = ${email.trim().toLowerCase()}`)
    )[0];

  return {
    async register(input: Registration, ip: string) {
      await throttle([limits.register], [ip], 'registration');
      const email = input.email.trim();
      // Loaded on the first registration: its metadata costs the server's start 0.2 s and 10 MB.
      const { isValidPhoneNumber } = await import('libphonenumber-js/min');
      if (!isValidPhoneNumber(input.whatsapp.trim()))
        throw new ValidationFailure([{ loc: ['body', 'whatsapp'], msg: INVALID_WHATSAPP, type: 'value_error' }]);
      if (await findByEmail(email)) throw new Conflict(TAKEN_EMAIL);
      // Through another affiliate's link, the new affiliate is its owner's second level (bound once, here).
      const code = input.affiliate_code?.trim();
      const [link] = code
        ? await db
            .select({ id: affiliateLinks.id, owner: affiliateLinks.affiliateId })
            .from(affiliateLinks)
            .where(sql`lower(${affiliateLinks.code}) = ${code.toLowerCase()}`)
        : [];
      const id = randomUUID();
      const optional = (value: string | undefined) => value?.trim() || null;
      try {
        await db.insert(affiliates).values({
          id,
          fullName: input.full_name.trim(),
          email,
          passwordHash: await hashPassword(input.password),
          whatsapp: input.whatsapp.trim(),
          telegram: optional(input.telegram),
          website: optional(input.website),
          youtube: optional(input.youtube),
          referredByLinkId: link?.id ?? null,
          parentAffiliateId: link?.owner ?? null,
          createdAt: new Date(now()),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new Conflict(TAKEN_EMAIL);
        throw error;
      }
      return { id };
    },

    async login(input: { email: string; password: string; remember_me?: boolean }, ip: string) {
      await throttle([limits.login], [ip], 'sign-in');
      const affiliate = await findByEmail(input.email);
      const valid = await checkPassword(affiliate?.passwordHash, input.password);
      if (!affiliate || !valid) throw new NotAuthenticated(INVALID_LOGIN);
      const token = newToken();
      const lifetime = input.remember_me === false ? TOKEN_LIFETIME_MS.session : TOKEN_LIFETIME_MS.rememberMe;
      const expiresAt = new Date(now() + lifetime);
      await db.insert(affiliateSessions).values({ tokenHash: hashToken(token), affiliateId: affiliate.id, expiresAt });
      return {
        access_token: token,
        affiliate_id: affiliate.id,
        token_type: 'bearer' as const,
        expires_at: expiresAt.toISOString(),
      };
    },

    /** The affiliate behind a token, or null (unknown, revoked, expired, or an application token). */
    async authenticate(token: string): Promise<{ id: string } | null> {
      const [row] = await db
        .select({ id: affiliateSessions.affiliateId })
        .from(affiliateSessions)
        .where(
          and(eq(affiliateSessions.tokenHash, hashToken(token)), gt(affiliateSessions.expiresAt, new Date(now()))),
        );
      return row ?? null;
    },

    async logout(token: string) {
      await db.delete(affiliateSessions).where(eq(affiliateSessions.tokenHash, hashToken(token)));
      return { success: true };
    },

    async me(affiliateId: string) {
      const [row] = await db.select().from(affiliates).where(eq(affiliates.id, affiliateId));
      if (!row) throw new NotAuthenticated();
      return {
        id: row.id,
        full_name: row.fullName,
        email: row.email,
        whatsapp: row.whatsapp,
        telegram: row.telegram,
        website: row.website,
        youtube: row.youtube,
        is_verified: row.status === 'verified',
        status: row.status as 'pending' | 'verified' | 'rejected',
        created_at: row.createdAt.toISOString(),
      };
    },
  };
}

export type AffiliateAccounts = ReturnType<typeof createAffiliateAccounts>;
