CREATE TABLE "event_feedback" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" text NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"reason" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_feedback_rating" CHECK ("event_feedback"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "trajectory_feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"conversation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"polarity" text NOT NULL,
	"permissions" text NOT NULL,
	"feedback" text,
	"email" text,
	"version" text,
	"trajectory" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trajectory_feedback_polarity" CHECK ("trajectory_feedback"."polarity" in ('positive', 'negative')),
	CONSTRAINT "trajectory_feedback_permissions" CHECK ("trajectory_feedback"."permissions" in ('public', 'private'))
);
--> statement-breakpoint
ALTER TABLE "event_feedback" ADD CONSTRAINT "event_feedback_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_feedback" ADD CONSTRAINT "event_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trajectory_feedback" ADD CONSTRAINT "trajectory_feedback_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trajectory_feedback" ADD CONSTRAINT "trajectory_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_feedback_conversation_event_key" ON "event_feedback" USING btree ("conversation_id","event_id");--> statement-breakpoint
CREATE INDEX "trajectory_feedback_conversation_idx" ON "trajectory_feedback" USING btree ("conversation_id");