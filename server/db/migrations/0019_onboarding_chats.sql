CREATE TABLE "onboarding_chat_events" (
	"chat_id" text NOT NULL,
	"id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_chat_events_chat_id_id_pk" PRIMARY KEY("chat_id","id")
);
--> statement-breakpoint
CREATE TABLE "onboarding_chats" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"flow_state" jsonb,
	"next_event_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "onboarding_chat_events" ADD CONSTRAINT "onboarding_chat_events_chat_id_onboarding_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."onboarding_chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_chats" ADD CONSTRAINT "onboarding_chats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "onboarding_chats_expiry_idx" ON "onboarding_chats" USING btree ("expires_at");