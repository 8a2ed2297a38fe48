-- One round trip per click: the function finds the link by its code itself (NULL when no link
-- has it) and answers whether the click counts.
DROP FUNCTION affiliate_click(text, text, boolean, boolean, timestamptz);--> statement-breakpoint
CREATE FUNCTION affiliate_click(p_code text, p_visitor text, p_bot boolean, p_client_unique boolean, p_at timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_link text;
  v_counted boolean;
BEGIN
  SELECT "id" INTO v_link FROM "affiliate_links" WHERE lower("code") = lower(p_code);
  IF v_link IS NULL THEN RETURN NULL; END IF;
  -- The lock orders one visitor's concurrent clicks on a link, so the check sees the earlier one.
  PERFORM pg_advisory_xact_lock(hashtextextended(v_link || ':' || p_visitor, 0));
  v_counted := NOT p_bot AND NOT EXISTS (
    SELECT 1 FROM "affiliate_clicks"
    WHERE "link_id" = v_link AND "visitor" = p_visitor AND "counted" AND "created_at" > p_at - interval '2 seconds'
  );
  INSERT INTO "affiliate_clicks" ("link_id", "visitor", "counted", "client_unique", "created_at")
  VALUES (v_link, p_visitor, v_counted, p_client_unique, p_at);
  RETURN v_counted;
END $$;
