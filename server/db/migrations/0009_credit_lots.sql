CREATE TABLE "credit_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"balance_micros" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_accounts_balance_non_negative" CHECK ("credit_accounts"."balance_micros" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_lots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"ledger_id" bigint,
	"kind" text NOT NULL,
	"amount_micros" bigint NOT NULL,
	"remaining_micros" bigint NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "credit_lots_kind" CHECK ("credit_lots"."kind" in ('promotional', 'paid')),
	CONSTRAINT "credit_lots_remaining" CHECK ("credit_lots"."remaining_micros" >= 0 and "credit_lots"."remaining_micros" <= "credit_lots"."amount_micros")
);
--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_lots" ADD CONSTRAINT "credit_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_lots" ADD CONSTRAINT "credit_lots_ledger_id_credit_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."credit_ledger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_lots_open_idx" ON "credit_lots" USING btree ("user_id","expires_at") WHERE "credit_lots"."remaining_micros" > 0;--> statement-breakpoint
-- Balances carried over: usage used to be recorded past zero; what went below it is forgiven
-- by a credit of its own, so every ledger still adds up to its account's balance.
INSERT INTO "credit_ledger" ("user_id", "amount_micros", "transaction_type", "description", "idempotency_key")
SELECT "user_id", -sum("amount_micros"), 'credit', 'Usage beyond the balance, forgiven', 'ledger:non-negative'
FROM "credit_ledger" WHERE "status" = 'completed' GROUP BY "user_id" HAVING sum("amount_micros") < 0;--> statement-breakpoint
INSERT INTO "credit_accounts" ("user_id", "balance_micros")
SELECT "id", coalesce((SELECT sum("amount_micros") FROM "credit_ledger" WHERE "credit_ledger"."user_id" = "users"."id" AND "status" = 'completed'), 0)
FROM "users";--> statement-breakpoint
INSERT INTO "credit_lots" ("user_id", "kind", "amount_micros", "remaining_micros")
SELECT "user_id", 'paid', "balance_micros", "balance_micros" FROM "credit_accounts" WHERE "balance_micros" > 0;--> statement-breakpoint
-- Writes off what is left of the user's lots whose expiry is at or before p_at, each with a
-- transaction of its own dated at its expiry. The caller holds the account's row lock.
CREATE FUNCTION credit_expire(p_user text, p_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lot record;
BEGIN
  FOR lot IN
    SELECT "id", "remaining_micros", "expires_at" FROM "credit_lots"
    WHERE "user_id" = p_user AND "remaining_micros" > 0 AND "expires_at" <= p_at
    ORDER BY "expires_at", "id"
  LOOP
    INSERT INTO "credit_ledger" ("user_id", "amount_micros", "transaction_type", "description", "idempotency_key", "created_at")
    VALUES (p_user, -lot."remaining_micros", 'debit', 'Expired credit', 'expiry:' || lot."id", lot."expires_at");
    UPDATE "credit_lots" SET "remaining_micros" = 0 WHERE "id" = lot."id";
    UPDATE "credit_accounts" SET "balance_micros" = "balance_micros" - lot."remaining_micros" WHERE "user_id" = p_user;
  END LOOP;
END $$;--> statement-breakpoint
-- Adds credit once per idempotency key (false when the key was used): a completed ledger entry,
-- its lot and the balance, under the account's row lock.
CREATE FUNCTION credit_grant(
  p_user text, p_amount bigint, p_type text, p_kind text, p_description text, p_key text, p_expires_at timestamptz
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_ledger bigint;
BEGIN
  IF p_amount <= 0 THEN RAISE EXCEPTION 'A grant must be positive' USING ERRCODE = '22023'; END IF;
  INSERT INTO "credit_accounts" ("user_id") VALUES (p_user) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "credit_accounts" WHERE "user_id" = p_user FOR UPDATE;
  INSERT INTO "credit_ledger" ("user_id", "amount_micros", "transaction_type", "description", "idempotency_key")
  VALUES (p_user, p_amount, p_type, p_description, p_key)
  ON CONFLICT ("user_id", "idempotency_key") DO NOTHING
  RETURNING "id" INTO v_ledger;
  IF v_ledger IS NULL THEN RETURN false; END IF;
  INSERT INTO "credit_lots" ("user_id", "ledger_id", "kind", "amount_micros", "remaining_micros", "expires_at")
  VALUES (p_user, v_ledger, p_kind, p_amount, p_amount, p_expires_at);
  UPDATE "credit_accounts" SET "balance_micros" = "balance_micros" + p_amount WHERE "user_id" = p_user;
  RETURN true;
END $$;--> statement-breakpoint
-- Spends p_amount once per idempotency key and answers the balance after it (or as it was, when
-- the key was used). Under the account's row lock it first writes off expired lots, then takes
-- from the open lots earliest expiry first, promotional before paid. Usage has already happened,
-- so when the balance is short it takes what there is.
CREATE FUNCTION credit_debit(
  p_user text, p_amount bigint, p_type text, p_description text, p_key text, p_at timestamptz,
  p_conversation text, p_category text, p_subcategory text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_balance bigint;
  v_take bigint;
  v_left bigint;
  v_use bigint;
  lot record;
BEGIN
  IF p_amount < 0 THEN RAISE EXCEPTION 'A debit cannot be negative' USING ERRCODE = '22023'; END IF;
  INSERT INTO "credit_accounts" ("user_id") VALUES (p_user) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "credit_accounts" WHERE "user_id" = p_user FOR UPDATE;
  PERFORM credit_expire(p_user, p_at);
  SELECT "balance_micros" INTO v_balance FROM "credit_accounts" WHERE "user_id" = p_user;
  IF EXISTS (SELECT 1 FROM "credit_ledger" WHERE "user_id" = p_user AND "idempotency_key" = p_key) THEN
    RETURN v_balance;
  END IF;
  v_take := least(p_amount, v_balance);
  -- Recorded even when nothing is left to take, so that a retry of the key takes nothing later.
  INSERT INTO "credit_ledger" ("user_id", "amount_micros", "transaction_type", "description", "idempotency_key", "conversation_id", "category", "subcategory")
  VALUES (p_user, -v_take, p_type, p_description, p_key, p_conversation, p_category, p_subcategory);
  v_left := v_take;
  FOR lot IN
    SELECT "id", "remaining_micros" FROM "credit_lots"
    WHERE "user_id" = p_user AND "remaining_micros" > 0
    ORDER BY "expires_at" NULLS LAST, "kind" = 'paid', "id"
  LOOP
    EXIT WHEN v_left = 0;
    v_use := least(v_left, lot."remaining_micros");
    UPDATE "credit_lots" SET "remaining_micros" = "remaining_micros" - v_use WHERE "id" = lot."id";
    v_left := v_left - v_use;
  END LOOP;
  UPDATE "credit_accounts" SET "balance_micros" = "balance_micros" - v_take WHERE "user_id" = p_user
  RETURNING "balance_micros" INTO v_balance;
  RETURN v_balance;
END $$;
--> statement-breakpoint
-- Writes off the user's expired lots now (reads subtract them without writing; the history
-- calls this so an expiry shows as a transaction even when nothing was spent since).
CREATE FUNCTION credit_settle(p_user text, p_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "credit_accounts" WHERE "user_id" = p_user FOR UPDATE;
  IF FOUND THEN PERFORM credit_expire(p_user, p_at); END IF;
END $$;
