CREATE TABLE "onboarding_chat_files" (
	"chat_id" text NOT NULL,
	"path" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_chat_files_chat_id_path_pk" PRIMARY KEY("chat_id","path"),
	CONSTRAINT "onboarding_chat_files_size" CHECK ("onboarding_chat_files"."size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "onboarding_chat_files" ADD CONSTRAINT "onboarding_chat_files_chat_id_onboarding_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."onboarding_chats"("id") ON DELETE cascade ON UPDATE no action;