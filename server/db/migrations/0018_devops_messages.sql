CREATE TABLE "devops_messages" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"sender" text NOT NULL,
	"text" text NOT NULL,
	"is_complete" boolean DEFAULT false NOT NULL,
	"context" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devops_messages_id_unique" UNIQUE("id"),
	CONSTRAINT "devops_messages_sender" CHECK ("devops_messages"."sender" in ('user', 'agent'))
);
--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "environment" text DEFAULT 'production' NOT NULL;--> statement-breakpoint
ALTER TABLE "devops_messages" ADD CONSTRAINT "devops_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devops_messages_session_idx" ON "devops_messages" USING btree ("conversation_id","seq");--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment" CHECK ("deployments"."environment" in ('staging', 'production'));