CREATE TABLE "onboarding" (
	"user_id" text PRIMARY KEY NOT NULL,
	"country_code" text,
	"contact_information" jsonb,
	"payment_information" jsonb,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "onboarding" ADD CONSTRAINT "onboarding_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;