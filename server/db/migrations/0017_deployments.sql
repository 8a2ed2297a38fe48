CREATE TABLE "deployments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"droplet_name" text NOT NULL,
	"ip" text,
	"url" text,
	"size_slug" text NOT NULL,
	"region" text NOT NULL,
	"hourly_cost_micros" bigint NOT NULL,
	"charged_hours" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "deployments_provider" CHECK ("deployments"."provider" in ('local', 'digitalocean')),
	CONSTRAINT "deployments_cost" CHECK ("deployments"."hourly_cost_micros" >= 0 and "deployments"."charged_hours" >= 0)
);
--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployments_conversation_idx" ON "deployments" USING btree ("user_id","conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_live_name_key" ON "deployments" USING btree ("conversation_id","droplet_name") WHERE "deployments"."deleted_at" is null;