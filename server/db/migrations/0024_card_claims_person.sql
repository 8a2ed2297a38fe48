ALTER TABLE "card_claims" ADD COLUMN "person" text;--> statement-breakpoint
-- Claims made before the rule: each person's first keeps the person (onboarding/claimant.ts's rule).
WITH addresses AS (
	SELECT c.fingerprint, c.created_at,
		split_part(substring(lower(trim(u.email)) from '^(.*)@'), '+', 1) AS local,
		substring(lower(trim(u.email)) from '@([^@]*)$') AS domain
	FROM "card_claims" c JOIN "users" u ON u.id = c.user_id
), people AS (
	SELECT fingerprint, created_at,
		CASE WHEN domain IN ('gmail.com', 'googlemail.com') THEN replace(local, '.', '') || '@gmail.com'
			ELSE local || '@' || domain END AS person
	FROM addresses
), firsts AS (
	SELECT fingerprint, person, row_number() OVER (PARTITION BY person ORDER BY created_at, fingerprint) AS n FROM people
)
UPDATE "card_claims" SET "person" = firsts.person FROM firsts
	WHERE firsts.fingerprint = "card_claims".fingerprint AND firsts.n = 1;--> statement-breakpoint
ALTER TABLE "card_claims" ADD CONSTRAINT "card_claims_person_key" UNIQUE("person");
