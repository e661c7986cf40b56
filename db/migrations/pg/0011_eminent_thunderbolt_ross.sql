ALTER TABLE "chats" ADD COLUMN "embed_origin" text;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "embed_origin" text;