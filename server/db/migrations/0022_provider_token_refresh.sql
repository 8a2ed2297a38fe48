ALTER TABLE "provider_tokens" ADD COLUMN "refresh_token" text;--> statement-breakpoint
ALTER TABLE "provider_tokens" ADD COLUMN "expires_at" timestamp with time zone;