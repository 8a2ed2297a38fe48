import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { sessions, users } from '../../db/schema.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { Conflict, NotAuthenticated, ValidationFailure } from '../../shared/domain-errors.ts';
import type { AuthUser } from '../../shared/operations.ts';
import { API_KEY_PREFIX, apiKeyOwner } from '../api-keys/index.ts';
import { balanceMicros, microsToDollars, userBalanceMicros } from '../credits/index.ts';
import { RateLimiter, throttle } from '../rate-limits/index.ts';
import type { Mailer } from '../mail/index.ts';
import { checkPassword, hashPassword } from './passwords.ts';
import { createEmailVerification } from './email-verification.ts';
import { createUsageAgreement } from './usage-agreement.ts';
import { isPersonalEmail } from './personal-email.ts';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.ts';
import { findUser } from './lookup.ts';
import { hashToken, newToken, TOKEN_LIFETIME_MS } from './tokens.ts';

export interface AuthOptions {
  rateLimit: { perIp: number; perEmail: number; windowMs: number };
  /** Carries "this user's sign-ins changed" to the other nodes' session caches. */
  bus: Pick<EventBus, 'announce' | 'onAnnouncement' | 'onReconnect'>;
  /** Verification mail: how it leaves, and the address its links point at. */
  mail: { mailer: Mailer; publicUrl: string };
  log: { warn(details: object, message: string): void };
  /**
   * The referral code a registration keeps: the affiliate link's code when it is one and not the
   * registrant's own (self-referral is refused), else null. Kept once, it binds the user for good.
   */
  referralCode?: (email: string, code: string | undefined) => Promise<string | null>;
}

/** The bus topic of account changes; the message is the user's id. */
export const USER_CHANGED = 'user';

/** The implicit user of oss mode. */
export const LOCAL_USER = { id: 'local', email: 'local@localhost', fullname: 'Local user' } as const;

// Verifying against a real hash when the email is unknown keeps both failures equally slow.

/** How much longer a sign-in to an email waits once its failures passed the limit. */
const EMAIL_SLOWDOWN_MS = 1000;

export function createAuthService(db: Db, options: AuthOptions) {
  const { perIp, perEmail, windowMs } = options.rateLimit;
  const { bus } = options;
  const cache = new SessionCache();
  bus.onAnnouncement(USER_CHANGED, (userId) => cache.forgetUser(userId));
  // Notices sent while the connection was down are lost: trust nothing cached before it.
  bus.onReconnect(() => cache.clear());
  // One query, built once (every page of the app reads it): the user's row and the ledger's sum.
  const currentUserRow = db
    .select({
      id: users.id,
      fullname: users.fullname,
      email: users.email,
      isPersonal: users.isPersonal,
      isActive: users.isActive,
      signedAgreement: users.signedAgreement,
      emailVerified: users.emailVerified,
      balance: userBalanceMicros(sql`${users}.id`),
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('current_user');
  // Guessing a password stays slow, but nobody can lock the owner out: attempts are refused per
  // address, and per address and email; an email's failures from everywhere only slow its
  // sign-ins down (a second each past the limit), never refuse them.
  const limiter = (name: string, limit: number) => new RateLimiter(db, { name, limit, windowMs });
  const limits = {
    loginIp: limiter('login-address', perIp),
    loginAddressEmail: limiter('login-address-email', perEmail),
    loginEmailFailures: limiter('login-email-failures', perEmail),
    registerIp: limiter('register-address', perIp),
    registerEmail: limiter('register-email', perEmail),
  };

  /** After anything that changes who a user's tokens stand for: every node reads them again. */
  async function userChanged(userId: string) {
    cache.forgetUser(userId);
    await bus.announce(USER_CHANGED, userId);
  }

  const verification = createEmailVerification(db, { ...options.mail, userChanged });
  const agreement = createUsageAgreement(db, { ...options.mail, userChanged });

  /** Sets an unverified account aside: an address nobody can sign in with, no password, no session. */
  async function retireUnverified(userId: string) {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ email: `retired-${userId}@unverified.invalid`, passwordHash: null, updatedAt: new Date() })
        .where(and(eq(users.id, userId), eq(users.emailVerified, false)));
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    });
    // Every node forgets its sign-ins, and its open sockets close.
    await userChanged(userId);
  }

  async function findByEmail(email: string) {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    return row;
  }

  /** A new bearer token for the user: a 12-hour session, or 30 days when remembered. */
  async function startSession(userId: string, rememberMe: boolean) {
    const token = newToken();
    const expiresAt = new Date(Date.now() + (rememberMe ? TOKEN_LIFETIME_MS.rememberMe : TOKEN_LIFETIME_MS.session));
    await db.insert(sessions).values({ id: randomUUID(), userId, tokenHash: hashToken(token), expiresAt });
    return { access_token: token, token_type: 'bearer' as const, expires_at: expiresAt.toISOString() };
  }

  async function currentUser(userId: string) {
    const [row] = await currentUserRow.execute({ userId });
    if (!row) throw new NotAuthenticated();
    const { balance, ...user } = row;
    return {
      id: user.id,
      fullname: user.fullname,
      email: user.email,
      is_personal: user.isPersonal,
      is_active: user.isActive,
      signed_agreement: user.signedAgreement,
      email_verified: user.emailVerified,
      credits: { balance: microsToDollars(BigInt(balance)) },
    };
  }

  return {
    async register(
      input: { name: string; email: string; password: string; affiliate_code?: string | null; is_personal?: boolean },
      ip: string,
    ) {
      const email = input.email.trim();
      const name = input.name.trim();
      await throttle([limits.registerIp, limits.registerEmail], [ip, email.toLowerCase()], 'registration');
      if (!name) throw new ValidationFailure([{ loc: ['body', 'name'], msg: 'Name is required', type: 'value_error' }]);
      const personal = isPersonalEmail(email);
      if (personal && !input.is_personal) return { id: null, personal_email_detected: true };
      if (await findByEmail(email)) throw new Conflict('An account with this email already exists.');
      const id = randomUUID();
      try {
        await db.insert(users).values({
          id,
          fullname: name,
          email,
          passwordHash: await hashPassword(input.password),
          isPersonal: personal || Boolean(input.is_personal),
          affiliateCode: options.referralCode
            ? await options.referralCode(email, input.affiliate_code?.trim())
            : input.affiliate_code?.trim() || null,
          // Verified by the link mailed below; until then the account cannot start conversations.
          emailVerified: false,
        });
      } catch (error) {
        // Two registrations of one address racing: the unique index decides.
        if (isUniqueViolation(error)) throw new Conflict('An account with this email already exists.');
        throw error;
      }
      // The account stands even when the mail does not leave: the user asks for another link.
      await verification
        .send(id, email)
        .catch((error: unknown) => options.log.warn({ err: error, userId: id }, 'the verification email was not sent'));
      return { id, personal_email_detected: false };
    },

    verifyEmail: verification.verify,
    resendEmailVerification: verification.resend,
    sendUsageAgreement: agreement.send,
    signUsageAgreement: agreement.sign,

    async login(input: { email: string; password: string; remember_me?: boolean }, ip: string) {
      const email = input.email.trim();
      const key = email.toLowerCase();
      await throttle([limits.loginIp, limits.loginAddressEmail], [ip, `${ip} ${key}`], 'sign-in');
      if ((await limits.loginEmailFailures.count(key)) >= perEmail) await sleep(EMAIL_SLOWDOWN_MS);
      const user = await findByEmail(email);
      const valid = await checkPassword(user?.passwordHash, input.password);
      if (!user || !valid) {
        await limits.loginEmailFailures.hit(key);
        throw new NotAuthenticated('Invalid email or password.');
      }
      return startSession(user.id, input.remember_me !== false);
    },

    startSession,

    /**
     * The account of an email address another service verified (sign-in through a git host):
     * the existing one when its owner verified the address too, else a new account without a
     * password that goes through onboarding like a registered one. An account of the address
     * that was never verified may be anyone's (registering someone else's address costs
     * nothing): it is not joined. It is retired instead — its address set aside, its password
     * and sessions ended — so the address is the verified owner's, and nothing its registrant
     * set up (settings, secrets, conversations) reaches the owner or the owner's git token.
     */
    async accountForVerifiedEmail(input: { email: string; name: string; affiliateCode?: string | null | undefined }) {
      const existing = await findByEmail(input.email);
      if (existing?.emailVerified) return existing.id;
      if (existing) await retireUnverified(existing.id);
      const id = randomUUID();
      try {
        await db.insert(users).values({
          id,
          fullname: input.name,
          email: input.email,
          isPersonal: isPersonalEmail(input.email),
          affiliateCode: options.referralCode
            ? await options.referralCode(input.email, input.affiliateCode?.trim())
            : input.affiliateCode?.trim() || null,
          emailVerified: true,
        });
      } catch (error) {
        // The same address registered meanwhile: that account is the one.
        if (isUniqueViolation(error)) return (await findByEmail(input.email))!.id;
        throw error;
      }
      return id;
    },

    /** The user behind a bearer token (a session's or an API key), or null when it is unknown, revoked or expired. */
    async authenticate(token: string): Promise<AuthUser | null> {
      const tokenHash = hashToken(token);
      const cached = cache.get(tokenHash);
      if (cached) return cached;
      if (token.startsWith(API_KEY_PREFIX)) {
        const owner = await apiKeyOwner(db, tokenHash);
        const account = owner ? await findUser(db, owner) : null;
        const user = account && { id: account.id, email: account.email, isActive: account.isActive };
        // A key has no expiry: the cache's own TTL bounds it, and revocation clears it at once.
        if (user) cache.set(tokenHash, user, new Date(Date.now() + SESSION_CACHE_TTL_MS));
        return user;
      }
      const [row] = await db
        .select({ id: users.id, email: users.email, isActive: users.isActive, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
      if (!row) return null;
      const { expiresAt, ...user } = row;
      cache.set(tokenHash, user, expiresAt);
      return user;
    },

    async logout(token: string) {
      const revoked = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
        .returning({ userId: sessions.userId });
      for (const { userId } of revoked) await userChanged(userId);
    },

    userChanged,

    currentUser,

    /** The profile's name; the email stays (a new address would need its own verification). */
    async updateProfile(userId: string, fullname: string) {
      await db.update(users).set({ fullname: fullname.trim(), updatedAt: new Date() }).where(eq(users.id, userId));
      await userChanged(userId);
      return currentUser(userId);
    },

    async credits(userId: string) {
      return { balance: microsToDollars(await balanceMicros(db, userId)) };
    },

    /** oss mode: the one implicit, active user. */
    async ensureLocalUser(): Promise<AuthUser> {
      await db
        .insert(users)
        .values({
          id: LOCAL_USER.id,
          email: LOCAL_USER.email,
          fullname: LOCAL_USER.fullname,
          isActive: true,
          isPersonal: false,
        })
        .onConflictDoNothing();
      return { id: LOCAL_USER.id, email: LOCAL_USER.email, isActive: true };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
