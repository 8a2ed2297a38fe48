CREATE TABLE "purchase_refunds" (
	"refund_key" text PRIMARY KEY NOT NULL,
	"purchase_key" text NOT NULL,
	"user_id" text NOT NULL,
	"amount_micros" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_refunds_amount" CHECK ("purchase_refunds"."amount_micros" > 0)
);
--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD CONSTRAINT "purchase_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_refunds_purchase_idx" ON "purchase_refunds" USING btree ("purchase_key");--> statement-breakpoint
-- Refunds recorded before this table, read back from their ledger rows ("Refund of $X (purchase REF)").
INSERT INTO "purchase_refunds" ("refund_key", "purchase_key", "user_id", "amount_micros", "created_at")
SELECT "idempotency_key",
  'purchase:' || substring("description" from '\(purchase ([^)]+)\)$'),
  "user_id",
  (substring("description" from '^Refund of \$([0-9]+\.[0-9]{2})')::numeric * 1000000)::bigint,
  "created_at"
FROM "credit_ledger"
WHERE "idempotency_key" LIKE 'refund:%' AND "description" ~ '^Refund of \$[0-9]+\.[0-9]{2} \(purchase [^)]+\)$'
ON CONFLICT DO NOTHING;
