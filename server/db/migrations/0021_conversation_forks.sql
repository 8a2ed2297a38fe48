ALTER TABLE "conversations" ADD COLUMN "forked_from_id" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "forked_at_event_id" integer;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "forked_from_title" text;--> statement-breakpoint
CREATE INDEX "conversations_forked_from_idx" ON "conversations" USING btree ("forked_from_id");--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_fork_origin" CHECK (("conversations"."forked_from_id" is null) = ("conversations"."forked_at_event_id" is null) and ("conversations"."forked_from_id" is null) = ("conversations"."forked_from_title" is null));