CREATE TABLE "embed_token_uses" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "store_customer_id" text;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_store_customer_id_unique" UNIQUE("store_customer_id");