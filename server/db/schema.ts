import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_idempotency_key').on(t.userId, t.idempotencyKey),
    index('credit_ledger_user_idx').on(t.userId),
    check('credit_ledger_type', sql`${t.transactionType} in ('initial_credit', 'credit', 'debit', 'purchase', 'usage')`),
    check('credit_ledger_status', sql`${t.status} in ('completed', 'pending', 'failed')`),
  ],
);
