ALTER TABLE "credit_ledger" ADD COLUMN "conversation_id" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "subcategory" text;--> statement-breakpoint
CREATE INDEX "credit_ledger_conversation_idx" ON "credit_ledger" USING btree ("user_id","conversation_id");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_category" CHECK ("credit_ledger"."category" is null or "credit_ledger"."category" in ('llm', 'droplet'));--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_subcategory" CHECK ("credit_ledger"."subcategory" is null or "credit_ledger"."subcategory" in ('chat', 'devops'));--> statement-breakpoint
UPDATE "credit_ledger" SET "conversation_id" = substring("description" from '^Model usage in conversation (.+)$'), "category" = 'llm', "subcategory" = 'chat' WHERE "transaction_type" = 'usage' AND "conversation_id" IS NULL AND "description" LIKE 'Model usage in conversation %';
