ALTER TABLE "store_operations" ALTER COLUMN "reason" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "store_operations" ADD COLUMN "to_address" json;--> statement-breakpoint
ALTER TABLE "store_operations" ADD COLUMN "received_at" bigint;--> statement-breakpoint
ALTER TABLE "store_operations" ADD COLUMN "received_by" text;