CREATE TABLE "conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'STOPPED' NOT NULL,
	"runtime_status" text,
	"session_api_key" text,
	"selected_repository" text,
	"selected_branch" text,
	"git_provider" text,
	"trigger" text,
	"instructions" text,
	"next_event_id" integer DEFAULT 0 NOT NULL,
	"owner_node" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_status" CHECK ("conversations"."status" in ('RUNNING', 'STARTING', 'STOPPED'))
);
--> statement-breakpoint
CREATE TABLE "custom_secrets" (
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_secrets_user_id_name_pk" PRIMARY KEY("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"conversation_id" text NOT NULL,
	"id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_conversation_id_id_pk" PRIMARY KEY("conversation_id","id")
);
--> statement-breakpoint
CREATE TABLE "provider_tokens" (
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"token" text NOT NULL,
	"host" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_tokens_user_id_provider_pk" PRIMARY KEY("user_id","provider"),
	CONSTRAINT "provider_tokens_provider" CHECK ("provider_tokens"."provider" in ('github', 'gitlab', 'bitbucket'))
);
--> statement-breakpoint
CREATE TABLE "saved_layouts" (
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"layout" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_layouts_user_id_name_pk" PRIMARY KEY("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"llm_model" text,
	"llm_base_url" text,
	"llm_api_key" text,
	"agent" text DEFAULT 'CodeActAgent' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"confirmation_mode" boolean DEFAULT false NOT NULL,
	"security_analyzer" text,
	"search_api_key" text,
	"remote_runtime_resource_factor" integer DEFAULT 1,
	"enable_default_condenser" boolean DEFAULT true NOT NULL,
	"enable_sound_notifications" boolean DEFAULT false NOT NULL,
	"enable_proactive_conversation_starters" boolean DEFAULT false NOT NULL,
	"user_consents_to_analytics" boolean DEFAULT false,
	"max_budget_per_task_micros" bigint,
	"email" text,
	"is_new_user" boolean DEFAULT true NOT NULL,
	"mcp_config" jsonb,
	"git_user_name" text,
	"git_user_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_secrets" ADD CONSTRAINT "custom_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_tokens" ADD CONSTRAINT "provider_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_layouts" ADD CONSTRAINT "saved_layouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_user_updated_idx" ON "conversations" USING btree ("user_id","last_updated_at","id");--> statement-breakpoint
CREATE INDEX "conversations_owner_idx" ON "conversations" USING btree ("owner_node");