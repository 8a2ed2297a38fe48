import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { affiliateClicks, affiliateCommissions, affiliateLinks, affiliates } from '../../db/schema.ts';
import { Conflict, Forbidden, NotFound, ValidationFailure } from '../../shared/domain-errors.ts';
import { microsToDollars } from '../credits/index.ts';

/** Spec: link codes are 3 to 32 letters, digits, `-` or `_`. */
export const LINK_CODE = /^[A-Za-z0-9_-]{3,32}$/;

/**
 * Codes a link may never have: the site's own first path segments (a link `/{code}` must not
 * shadow a page) and words kept for later ones. Compared case-insensitively.
 */
export const RESERVED_CODES = new Set([
  'affiliate',
  'api',
  'admin',
  'assets',
  'claim-credit',
  'conversations',
  'dashboard',
  'docs',
  'experiment',
  'favicon.ico',
  'feedback',
  'health',
  'help',
  'index',
  'login',
  'logout',
  'microagent-management',
  'onboarding',
  'pricing',
  'privacy',
  'profile',
  'ready',
  'register',
  'registration-onboarding',
  'settings',
  'signup',
  'socket',
  'static',
  'support',
  'terms',
  'usage-agreement',
  'verify-email',
]);

export const NOT_VERIFIED = 'Only verified affiliates can create referral links. Your application is being reviewed.';
export const CODE_TAKEN = 'This code is already taken. Please choose another one.';
export const CODE_RESERVED = 'This code is reserved. Please choose another one.';

// Bots that announce themselves, and clients that are not a person's browser.
const BOT_AGENT = /bot|crawl|spider|slurp|preview|headless|curl|wget|python|httpclient|okhttp|java\/|go-http|scrapy/i;
export const isBot = (userAgent: string | undefined) => !userAgent?.trim() || BOT_AGENT.test(userAgent);

/** The affiliate's own link that is not archived: what their link operations may touch. */
export const ownLink = (affiliateId: string, linkId: string) =>
  and(eq(affiliateLinks.id, linkId), eq(affiliateLinks.affiliateId, affiliateId), isNull(affiliateLinks.archivedAt));

export const LINK_NOT_FOUND = 'Referral link not found';

export interface AffiliateLinksDeps {
  publicUrl: string;
  /** A keyed hash: visitors are told apart without keeping their addresses. */
  fingerprint: (value: string) => string;
  now?: () => number;
}

/** Referral links (spec §2, §4): the owner's list with its figures, create, rename, archive; clicks on them. */
export function createAffiliateLinks(db: Db, deps: AffiliateLinksDeps) {
  const now = deps.now ?? Date.now;

  // Counted clicks, distinct visitors, paying customers, commissions: each summed from its own
  // table. Qualified by hand: Drizzle leaves a one-table select's columns unqualified inside subqueries.
  const figures = {
    totalClicks: sql<number>`(select count(*)::int from ${affiliateClicks} c where c.link_id = ${affiliateLinks}.id and c.counted)`,
    uniqueClicks: sql<number>`(select count(distinct c.visitor)::int from ${affiliateClicks} c where c.link_id = ${affiliateLinks}.id and c.counted)`,
    // A conversion is a referred customer's first paid purchase (a sign-up alone earns nothing): customers with a direct commission.
    conversions: sql<number>`(select count(distinct m.user_id)::int from ${affiliateCommissions} m where m.link_id = ${affiliateLinks}.id and m.level = 1)`,
    earnings: sql<string>`(select coalesce(sum(m.amount_micros), 0) from ${affiliateCommissions} m where m.link_id = ${affiliateLinks}.id)`,
  };

  /** A link's row as the affiliate sees it: its own columns and its figures. */
  const linkRow = {
    id: affiliateLinks.id,
    name: affiliateLinks.name,
    code: affiliateLinks.code,
    createdAt: affiliateLinks.createdAt,
    ...figures,
  };

  function view(row: {
    id: string;
    name: string;
    code: string;
    createdAt: Date;
    totalClicks: number;
    uniqueClicks: number;
    conversions: number;
    earnings: string;
  }) {
    return {
      id: row.id,
      name: row.name,
      code: row.code,
      url: `${deps.publicUrl}/${row.code}`,
      total_clicks: Number(row.totalClicks),
      unique_clicks: Number(row.uniqueClicks),
      conversions: Number(row.conversions),
      earnings: microsToDollars(BigInt(row.earnings)),
      created_at: row.createdAt.toISOString(),
    };
  }

  async function owned(affiliateId: string, linkId: string) {
    const [row] = await db.select(linkRow).from(affiliateLinks).where(ownLink(affiliateId, linkId));
    if (!row) throw new NotFound(LINK_NOT_FOUND);
    return row;
  }

  return {
    async list(affiliateId: string) {
      const rows = await db
        .select(linkRow)
        .from(affiliateLinks)
        .where(and(eq(affiliateLinks.affiliateId, affiliateId), isNull(affiliateLinks.archivedAt)))
        .orderBy(desc(affiliateLinks.createdAt), desc(affiliateLinks.id));
      return rows.map(view);
    },

    async create(affiliateId: string, input: { name: string; code: string }) {
      const [owner] = await db
        .select({ status: affiliates.status })
        .from(affiliates)
        .where(eq(affiliates.id, affiliateId));
      if (owner?.status !== 'verified') throw new Forbidden(NOT_VERIFIED);
      const code = input.code.trim();
      if (!LINK_CODE.test(code))
        throw new ValidationFailure([
          {
            loc: ['body', 'code'],
            msg: 'The code must be 3 to 32 letters, digits, "-" or "_".',
            type: 'value_error',
          },
        ]);
      if (RESERVED_CODES.has(code.toLowerCase())) throw new Conflict(CODE_RESERVED);
      const id = randomUUID();
      try {
        await db
          .insert(affiliateLinks)
          .values({ id, affiliateId, name: input.name.trim(), code, createdAt: new Date(now()) });
      } catch (error) {
        // Unique case-insensitively, archived links included: a code is never handed out twice.
        if (isUniqueViolation(error)) throw new Conflict(CODE_TAKEN);
        throw error;
      }
      return view(await owned(affiliateId, id));
    },

    async rename(affiliateId: string, linkId: string, name: string) {
      await owned(affiliateId, linkId);
      await db.update(affiliateLinks).set({ name: name.trim() }).where(eq(affiliateLinks.id, linkId));
      return view(await owned(affiliateId, linkId));
    },

    /** Hides the link; its clicks, users and earnings stay. */
    async archive(affiliateId: string, linkId: string) {
      await owned(affiliateId, linkId);
      await db
        .update(affiliateLinks)
        .set({ archivedAt: new Date(now()) })
        .where(eq(affiliateLinks.id, linkId));
      return { success: true };
    },

    /** A registration's referral code as kept: a link's own code, unless the link is the registrant's own. */
    async referralCode(email: string, code: string | undefined) {
      if (!code) return null;
      const [link] = await db
        .select({ code: affiliateLinks.code, owner: affiliates.email, status: affiliates.status })
        .from(affiliateLinks)
        .innerJoin(affiliates, eq(affiliates.id, affiliateLinks.affiliateId))
        .where(sql`lower(${affiliateLinks.code}) = ${code.toLowerCase()}`);
      // A rejected affiliate's links bind no one from the rejection on.
      if (!link || link.status === 'rejected' || link.owner.toLowerCase() === email.trim().toLowerCase()) return null;
      return link.code;
    },

    /**
     * Stores a click on `code` (archived links count too) and whether it counts: the server
     * decides who is a distinct visitor (a keyed hash of address and browser); the browser's
     * `unique` is kept as a hint only. Bots are stored, not counted.
     */
    async click(input: { code: string; unique: boolean; ip: string; userAgent: string | undefined }) {
      const visitor = deps.fingerprint(`visitor:${input.ip}|${input.userAgent ?? ''}`);
      const result = await db.execute(
        sql`select affiliate_click(${input.code.trim()}, ${visitor}, ${isBot(input.userAgent)}, ${input.unique}, ${new Date(now()).toISOString()}::timestamptz) as counted`,
      );
      // NULL: no link has this code.
      const counted = (result as unknown as { rows: { counted: boolean | null }[] }).rows[0]?.counted;
      if (counted === null || counted === undefined) throw new NotFound('Unknown referral code');
      return { success: true };
    },
  };
}

export type AffiliateLinks = ReturnType<typeof createAffiliateLinks>;
