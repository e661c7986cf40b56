-- Emails become one identity however they are written (trim, lower case; the app also folds
-- Unicode forms, NFKC, before it writes one). Existing near-duplicates are settled first, keeping
-- every account and all of its rows: the oldest account of each normalised email (by created_at,
-- then id) keeps it; every newer one keeps its id, chats, actions, audit and store link, is signed
-- out, and gets the address "<normalised>.duplicate-<id>.invalid", which shows what it was and
-- can receive no mail, so it can no longer reach the older account's mailbox or look like it.
DELETE FROM "session" WHERE "user_id" IN (
  SELECT u."id" FROM "user" u WHERE EXISTS (
    SELECT 1 FROM "user" o
    WHERE lower(trim(o."email")) = lower(trim(u."email"))
      AND (o."created_at" < u."created_at" OR (o."created_at" = u."created_at" AND o."id" < u."id"))
  )
);--> statement-breakpoint
UPDATE "user" u SET "email" = lower(trim(u."email")) || '.duplicate-' || u."id" || '.invalid'
WHERE EXISTS (
  SELECT 1 FROM "user" o
  WHERE lower(trim(o."email")) = lower(trim(u."email"))
    AND (o."created_at" < u."created_at" OR (o."created_at" = u."created_at" AND o."id" < u."id"))
);--> statement-breakpoint
UPDATE "user" SET "email" = lower(trim("email")) WHERE "email" <> lower(trim("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "user_email_normalized_unique" ON "user" USING btree (lower(trim("email")));
