import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    fullname: text('fullname').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    isPersonal: boolean('is_personal').notNull().default(false),
    /** False until registration onboarding completes; inactive users are held on /registration-onboarding. */
    isActive: boolean('is_active').notNull().default(false),
    signedAgreement: boolean('signed_agreement').notNull().default(false),
    emailVerified: boolean('email_verified').notNull().default(true),
    affiliateCode: text('affiliate_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

/**
 * A git host's account linked to an Atelier account by sign-in through that host: found again by
 * the host's own id for the account (which survives a change of its email or login).
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    login: text('login').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.externalId] }),
    // One account of each host per user.
    uniqueIndex('user_identities_user_provider_key').on(t.userId, t.provider),
    check('user_identities_provider', sql`${t.provider} in ('github', 'gitlab', 'bitbucket')`),
  ],
);

/** Opaque bearer tokens: only their SHA-256 is stored, so a database leak does not leak sessions. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * API keys (hosted service): bearer tokens a user makes for scripts. Only the key's SHA-256 is
 * kept (a 256-bit random key needs no slow hash); a revoked key keeps its row, so the list of
 * what existed stays explainable, but never authenticates again.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);

/**
 * Email verification links: the SHA-256 of each link's token, for the address it was sent to.
 * Verifying deletes the user's rows; a newer link replaces the older ones.
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

/** Cards that claimed the trial credit, by keyed fingerprint only (never the number): each card claims once, each person once. */
export const cardClaims = pgTable('card_claims', {
  fingerprint: text('fingerprint').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The claimant's address as one person's (onboarding/claimant.ts): the trial is once per person. */
  person: text('person').unique('card_claims_person_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The usage agreement's mailed links (only their hashes), to the account's company email. */
export const usageAgreementLinks = pgTable(
  'usage_agreement_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('usage_agreement_links_user_idx').on(t.userId)],
);

/** Mail kept instead of sent while no SMTP_URL is set; the operator reads it with `npm run admin -- outbox`. */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Registration onboarding of a saas account: the country (ISO 3166-1 alpha-2), the contact
 * information and the payment method, each as the answer shows it. Card numbers and security
 * codes are never stored: a payment method keeps its brand, last four digits and expiry.
 */
export const onboarding = pgTable('onboarding', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  countryCode: text('country_code'),
  contactInformation: jsonb('contact_information'),
  paymentInformation: jsonb('payment_information'),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Append-only credits ledger in integer micro-dollars; the balance is the sum of completed entries. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    transactionType: text('transaction_type').notNull(),
    status: text('status').notNull().default('completed'),
    description: text('description').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Usage: the conversation it was spent in (no foreign key: the history outlives the conversation). */
    conversationId: text('conversation_id'),
    /** Usage: what was paid for — model calls (llm) or a deployment's droplet — and, for llm, by which agent. */
    category: text('category'),
    subcategory: text('subcategory'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_idempotency_key').on(t.userId, t.idempotencyKey),
    index('credit_ledger_user_idx').on(t.userId),
    index('credit_ledger_conversation_idx').on(t.userId, t.conversationId),
    check('credit_ledger_category', sql`${t.category} is null or ${t.category} in ('llm', 'droplet')`),
    check('credit_ledger_subcategory', sql`${t.subcategory} is null or ${t.subcategory} in ('chat', 'devops')`),
    check(
      'credit_ledger_type',
      sql`${t.transactionType} in ('initial_credit', 'credit', 'debit', 'purchase', 'usage')`,
    ),
    check('credit_ledger_status', sql`${t.status} in ('completed', 'pending', 'failed')`),
  ],
);

/**
 * Each refund of a purchase (payments module): how much of it was given back, so that several
 * partial refunds never add up to more than the purchase. `refund_key` is the refund's ledger
 * key (`refund:<provider's refund id>`), `purchase_key` the purchase's (`purchase:<reference>`).
 */
export const purchaseRefunds = pgTable(
  'purchase_refunds',
  {
    refundKey: text('refund_key').primaryKey(),
    purchaseKey: text('purchase_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('purchase_refunds_purchase_idx').on(t.purchaseKey),
    check('purchase_refunds_amount', sql`${t.amountMicros} > 0`),
  ],
);

/**
 * What each user can spend, in micro-dollars. Kept equal to the sum of their completed ledger
 * entries by the database functions of migration 0009 (credit_grant, credit_debit), which take
 * this row's lock first; the check makes an overdraw impossible whatever the caller does.
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceMicros: bigint('balance_micros', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (t) => [check('credit_accounts_balance_non_negative', sql`${t.balanceMicros} >= 0`)],
);

/**
 * What is left of each grant or purchase. Debits spend lots earliest expiry first, promotional
 * before paid; a lot past its expiry is written off by an expiry transaction of its own.
 * Their remainders always add up to the account's balance.
 */
export const creditLots = pgTable(
  'credit_lots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The grant or purchase that created it (none for the balances carried over by migration 0009). */
    ledgerId: bigint('ledger_id', { mode: 'number' }).references(() => creditLedger.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    remainingMicros: bigint('remaining_micros', { mode: 'bigint' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('credit_lots_open_idx')
      .on(t.userId, t.expiresAt)
      .where(sql`${t.remainingMicros} > 0`),
    check('credit_lots_kind', sql`${t.kind} in ('promotional', 'paid')`),
    check('credit_lots_remaining', sql`${t.remainingMicros} >= 0 and ${t.remainingMicros} <= ${t.amountMicros}`),
  ],
);

/**
 * The account's side at the payment provider: its customer there and the saved payment method
 * charged for purchases (the provider's token and what may be shown of the card; never its
 * number or security code).
 */
export const paymentAccounts = pgTable(
  'payment_accounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id'),
    paymentMethodId: text('payment_method_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('payment_accounts_provider', sql`${t.provider} in ('stripe', 'test')`)],
);

/**
 * Affiliates of the referral programme: accounts of their own, apart from the application's
 * users. Staff verify them (`npm run admin -- affiliate:verify`); only verified ones create
 * links. One who registered through another affiliate's link is that affiliate's second level.
 */
export const affiliates = pgTable(
  'affiliates',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    whatsapp: text('whatsapp').notNull(),
    telegram: text('telegram'),
    website: text('website'),
    youtube: text('youtube'),
    status: text('status').notNull().default('pending'),
    /** The link it registered through, and that link's owner (bound once, at registration). */
    referredByLinkId: text('referred_by_link_id'),
    parentAffiliateId: text('parent_affiliate_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('affiliates_email_lower_key').on(sql`lower(${t.email})`),
    index('affiliates_parent_idx').on(t.parentAffiliateId),
    check('affiliates_status', sql`${t.status} in ('pending', 'verified', 'rejected')`),
    check('affiliates_not_own_parent', sql`${t.parentAffiliateId} is null or ${t.parentAffiliateId} <> ${t.id}`),
  ],
);

/** Affiliate sign-ins: only the token's SHA-256 is kept; affiliate tokens work on affiliate calls only. */
export const affiliateSessions = pgTable('affiliate_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  affiliateId: text('affiliate_id')
    .notNull()
    .references(() => affiliates.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Referral links. Codes are unique case-insensitively forever: an archived link keeps its code. */
export const affiliateLinks = pgTable(
  'affiliate_links',
  {
    id: text('id').primaryKey(),
    affiliateId: text('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('affiliate_links_code_lower_key').on(sql`lower(${t.code})`),
    index('affiliate_links_affiliate_idx').on(t.affiliateId),
  ],
);

/**
 * Every click on a referral link. `visitor` is a salted hash of the visitor's address and
 * browser: unique clicks are the distinct visitors among the counted clicks. Bots and HEAD
 * requests are stored but not counted; the browser's own `unique` flag is kept as a hint.
 */
export const affiliateClicks = pgTable(
  'affiliate_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: text('link_id')
      .notNull()
      .references(() => affiliateLinks.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    counted: boolean('counted').notNull(),
    clientUnique: boolean('client_unique').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('affiliate_clicks_link_visitor_idx').on(t.linkId, t.visitor)],
);

/**
 * What affiliates earn: one row per purchase per level (direct, second), in integer
 * micro-dollars; a refund writes a negative row. Earnings and the links' figures are sums of it.
 */
export const affiliateCommissions = pgTable(
  'affiliate_commissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    affiliateId: text('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    linkId: text('link_id').references(() => affiliateLinks.id, { onDelete: 'set null' }),
    /** The referred customer, or the second-level affiliate's customer. */
    userId: text('user_id').notNull(),
    /** On a second-level row: the affiliate who referred the customer (the recruit). */
    viaAffiliateId: text('via_affiliate_id'),
    level: integer('level').notNull(),
    revenueMicros: bigint('revenue_micros', { mode: 'bigint' }).notNull(),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('affiliate_commissions_key').on(t.idempotencyKey, t.level),
    index('affiliate_commissions_affiliate_idx').on(t.affiliateId, t.createdAt),
    check('affiliate_commissions_level', sql`${t.level} in (1, 2)`),
  ],
);

/**
 * A conversation and its runtime state. Events are numbered by `next_event_id`: taking a
 * number locks this row until the event's transaction commits, so ids are strictly
 * increasing per conversation and commit in id order (readers never see a gap fill later).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: text('status').notNull().default('STOPPED'),
    runtimeStatus: text('runtime_status'),
    /** Encrypted (AES-256-GCM); a new key on every start, null while stopped. */
    sessionApiKey: text('session_api_key'),
    selectedRepository: text('selected_repository'),
    selectedBranch: text('selected_branch'),
    gitProvider: text('git_provider'),
    trigger: text('trigger'),
    instructions: text('instructions'),
    /** A fork's original (not a reference: the fork outlives a deleted original), its last event in the fork, and its title then. */
    forkedFromId: text('forked_from_id'),
    forkedAtEventId: integer('forked_at_event_id'),
    forkedFromTitle: text('forked_from_title'),
    nextEventId: integer('next_event_id').notNull().default(0),
    /** The node whose runtime and agent serve the conversation while it runs, and until when its claim holds. */
    ownerNode: text('owner_node'),
    /** Where other nodes reach the owner, to forward the per-conversation calls that need its runtime. */
    ownerUrl: text('owner_url'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** What served each app port when last seen: started again on the user's word after a restart. */
    servedApps: jsonb('served_apps')
      .$type<{ slot: number; port: number; argv: string[]; cwd: string }[]>()
      .notNull()
      .default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUpdatedAt: timestamp('last_updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.lastUpdatedAt, t.id),
    index('conversations_owner_idx').on(t.ownerNode),
    index('conversations_forked_from_idx').on(t.forkedFromId),
    check(
      'conversations_fork_origin',
      sql`(${t.forkedFromId} is null) = (${t.forkedAtEventId} is null) and (${t.forkedFromId} is null) = (${t.forkedFromTitle} is null)`,
    ),
    check('conversations_status', sql`${t.status} in ('RUNNING', 'STARTING', 'STOPPED')`),
  ],
);

/** Append-only event log of a conversation; `data` is the event as sent to clients. */
export const events = pgTable(
  'events',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    id: integer('id').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.id] })],
);

/** Model, agent and git settings; a row exists once the user saved settings. Keys are encrypted. */
export const userSettings = pgTable('user_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  llmModel: text('llm_model'),
  llmBaseUrl: text('llm_base_url'),
  llmApiKey: text('llm_api_key'),
  agent: text('agent').notNull().default('CodeActAgent'),
  language: text('language').notNull().default('en'),
  confirmationMode: boolean('confirmation_mode').notNull().default(false),
  securityAnalyzer: text('security_analyzer'),
  searchApiKey: text('search_api_key'),
  remoteRuntimeResourceFactor: integer('remote_runtime_resource_factor').default(1),
  enableDefaultCondenser: boolean('enable_default_condenser').notNull().default(true),
  enableSoundNotifications: boolean('enable_sound_notifications').notNull().default(false),
  enableProactiveConversationStarters: boolean('enable_proactive_conversation_starters').notNull().default(false),
  userConsentsToAnalytics: boolean('user_consents_to_analytics').default(false),
  maxBudgetPerTaskMicros: bigint('max_budget_per_task_micros', { mode: 'bigint' }),
  email: text('email'),
  isNewUser: boolean('is_new_user').notNull().default(true),
  mcpConfig: jsonb('mcp_config'),
  gitUserName: text('git_user_name'),
  gitUserEmail: text('git_user_email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Git provider tokens (encrypted), one per provider. A token from a sign-in through GitLab or
 * Bitbucket expires (after 2 hours) and comes with a refresh token (encrypted) that trades for
 * the next; a token the user saved has neither.
 */
export const providerTokens = pgTable(
  'provider_tokens',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    token: text('token').notNull(),
    host: text('host'),
    refreshToken: text('refresh_token'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    check('provider_tokens_provider', sql`${t.provider} in ('github', 'gitlab', 'bitbucket')`),
  ],
);

/** The user's custom secrets: values encrypted, given to runtimes as environment variables. */
export const customSecrets = pgTable(
  'custom_secrets',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);

/** Workspace layouts the user saved by name (flexlayout JSON as given). */
export const savedLayouts = pgTable(
  'saved_layouts',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    layout: jsonb('layout').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);

/**
 * Client actions waiting for the node that runs their conversation, when a socket on another
 * node received them (a NOTIFY payload is too small for a message of 100,000 characters).
 * The owner deletes each row as it takes it.
 */
export const conversationInbox = pgTable(
  'conversation_inbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    action: jsonb('action').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversation_inbox_conversation_idx').on(t.conversationId, t.id)],
);

/** A user's 1–5 rating of one event of their conversation; one rating per event. */
export const eventFeedback = pgTable(
  'event_feedback',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    eventId: integer('event_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    reason: text('reason'),
    metadata: jsonb('metadata'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('event_feedback_conversation_event_key').on(t.conversationId, t.eventId),
    check('event_feedback_rating', sql`${t.rating} between 1 and 5`),
  ],
);

/** Feedback on a whole conversation, with a snapshot of its trajectory (events) when given. */
export const trajectoryFeedback = pgTable(
  'trajectory_feedback',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    polarity: text('polarity').notNull(),
    permissions: text('permissions').notNull(),
    feedback: text('feedback'),
    email: text('email'),
    version: text('version'),
    trajectory: jsonb('trajectory').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('trajectory_feedback_conversation_idx').on(t.conversationId),
    check('trajectory_feedback_polarity', sql`${t.polarity} in ('positive', 'negative')`),
    check('trajectory_feedback_permissions', sql`${t.permissions} in ('public', 'private')`),
  ],
);

/**
 * Infrastructure the DevOps agent deployed for a conversation. Its cost accrues per second from
 * `createdAt` at `hourlyCostMicros`; each whole hour is charged to the user's credits once
 * (`chargedHours` counts them; the ledger's idempotency keys make a repeat harmless), the rest at
 * deletion. Deleted rows stay: the billing history and the total cost read them.
 */
export const deployments = pgTable(
  'deployments',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** No foreign key: the deployment and its cost outlive a deleted conversation. */
    conversationId: text('conversation_id').notNull(),
    provider: text('provider').notNull(),
    /** The provider's own id for it (a droplet id; the local provider's process key). */
    externalId: text('external_id').notNull(),
    dropletName: text('droplet_name').notNull(),
    ip: text('ip'),
    /** Where the deployed app answers. */
    url: text('url'),
    sizeSlug: text('size_slug').notNull(),
    region: text('region').notNull(),
    /** Which of the workspace's App menu entries opens it. */
    environment: text('environment').notNull().default('production'),
    hourlyCostMicros: bigint('hourly_cost_micros', { mode: 'bigint' }).notNull(),
    chargedHours: integer('charged_hours').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('deployments_conversation_idx').on(t.userId, t.conversationId),
    // One live deployment of a name per conversation (the delete call names it).
    uniqueIndex('deployments_live_name_key')
      .on(t.conversationId, t.dropletName)
      .where(sql`${t.deletedAt} is null`),
    check('deployments_provider', sql`${t.provider} in ('local', 'digitalocean')`),
    check('deployments_cost', sql`${t.hourlyCostMicros} >= 0 and ${t.chargedHours} >= 0`),
    check('deployments_environment', sql`${t.environment} in ('staging', 'production')`),
  ],
);

/**
 * The DevOps agent's session of a conversation: what the user and the agent said (shown in the
 * DevOps tab) and, on each reply, the model messages of its turn (tool calls and results), from
 * which the next turn's context is rebuilt.
 */
export const devopsMessages = pgTable(
  'devops_messages',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    /** The session is the conversation (no foreign key: like its deployments, it outlives it). */
    conversationId: text('conversation_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sender: text('sender').notNull(),
    text: text('text').notNull(),
    isComplete: boolean('is_complete').notNull().default(false),
    /** The turn's model messages (on the reply that ends it); empty on progress messages. */
    context: jsonb('context').notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('devops_messages_session_idx').on(t.conversationId, t.seq),
    check('devops_messages_sender', sql`${t.sender} in ('user', 'agent')`),
  ],
);

/**
 * A chat-only onboarding session (/onboarding): opened by an anonymous visitor with its token,
 * bound to an account once the visitor signs up or logs in in the chat.
 */
export const onboardingChats = pgTable(
  'onboarding_chats',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the visitor's chat token. */
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Unclaimed sessions end here; a claimed one lives as long as its account. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The onboarding agent's step (the flow statechart's persisted snapshot); null before the greeting. */
    flowState: jsonb('flow_state'),
    nextEventId: integer('next_event_id').notNull().default(0),
  },
  (t) => [index('onboarding_chats_expiry_idx').on(t.expiresAt)],
);

/** The chat-only onboarding's events, numbered per chat like a conversation's. */
export const onboardingChatEvents = pgTable(
  'onboarding_chat_events',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => onboardingChats.id, { onDelete: 'cascade' }),
    id: integer('id').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.id] })],
);

/** Bytes as PostgreSQL's bytea (drizzle has no built-in column for it). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A chat-only onboarding visitor's uploaded project files, kept with the chat until it upgrades
 * (then written into the new conversation's workspace and removed). In the database, not on a
 * node's disk, so the upgrade may run on any node; bounded per chat by the upload call.
 */
export const onboardingChatFiles = pgTable(
  'onboarding_chat_files',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => onboardingChats.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    content: bytea('content').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.path] }), check('onboarding_chat_files_size', sql`${t.size} >= 0`)],
);

/** Attempts counted by the rate limiters (modules/rate-limits; rate-limiter-flexible's Drizzle store), shared by every node. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});
