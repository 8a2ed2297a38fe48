CREATE TABLE "affiliate_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"visitor" text NOT NULL,
	"counted" boolean NOT NULL,
	"client_unique" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliate_commissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"affiliate_id" text NOT NULL,
	"link_id" text,
	"user_id" text NOT NULL,
	"level" integer NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"amount_micros" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_commissions_level" CHECK ("affiliate_commissions"."level" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "affiliate_links" (
	"id" text PRIMARY KEY NOT NULL,
	"affiliate_id" text NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliate_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"affiliate_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliates" (
	"id" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"whatsapp" text NOT NULL,
	"telegram" text,
	"website" text,
	"youtube" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"referred_by_link_id" text,
	"parent_affiliate_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliates_status" CHECK ("affiliates"."status" in ('pending', 'verified', 'rejected')),
	CONSTRAINT "affiliates_not_own_parent" CHECK ("affiliates"."parent_affiliate_id" is null or "affiliates"."parent_affiliate_id" <> "affiliates"."id")
);
--> statement-breakpoint
ALTER TABLE "affiliate_clicks" ADD CONSTRAINT "affiliate_clicks_link_id_affiliate_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."affiliate_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_commissions" ADD CONSTRAINT "affiliate_commissions_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_commissions" ADD CONSTRAINT "affiliate_commissions_link_id_affiliate_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."affiliate_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_links" ADD CONSTRAINT "affiliate_links_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_sessions" ADD CONSTRAINT "affiliate_sessions_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_clicks_link_visitor_idx" ON "affiliate_clicks" USING btree ("link_id","visitor");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_commissions_key" ON "affiliate_commissions" USING btree ("idempotency_key","level");--> statement-breakpoint
CREATE INDEX "affiliate_commissions_affiliate_idx" ON "affiliate_commissions" USING btree ("affiliate_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_links_code_lower_key" ON "affiliate_links" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "affiliate_links_affiliate_idx" ON "affiliate_links" USING btree ("affiliate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_email_lower_key" ON "affiliates" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "affiliates_parent_idx" ON "affiliates" USING btree ("parent_affiliate_id");--> statement-breakpoint
-- Stores a click and answers whether it counts: not a bot's, and not the same visitor's click on
-- the same link within the last 2 seconds (a click sent twice counts once). The advisory lock
-- orders one visitor's concurrent clicks on a link, so the check sees the earlier one.
CREATE FUNCTION affiliate_click(p_link text, p_visitor text, p_bot boolean, p_client_unique boolean, p_at timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_counted boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_link || ':' || p_visitor, 0));
  v_counted := NOT p_bot AND NOT EXISTS (
    SELECT 1 FROM "affiliate_clicks"
    WHERE "link_id" = p_link AND "visitor" = p_visitor AND "counted" AND "created_at" > p_at - interval '2 seconds'
  );
  INSERT INTO "affiliate_clicks" ("link_id", "visitor", "counted", "client_unique", "created_at")
  VALUES (p_link, p_visitor, v_counted, p_client_unique, p_at);
  RETURN v_counted;
END $$;
