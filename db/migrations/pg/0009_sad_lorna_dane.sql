CREATE TABLE "store_operations" (
	"id" text PRIMARY KEY NOT NULL,
	"business_key" text NOT NULL,
	"backend" text NOT NULL,
	"kind" text NOT NULL,
	"store_order_ref" text NOT NULL,
	"order_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"comment" text,
	"refund_amount_minor" integer NOT NULL,
	"refund_currency" text NOT NULL,
	"refund_destination" text NOT NULL,
	"action_id" text,
	"operation_id" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	CONSTRAINT "store_operations_business_key_unique" UNIQUE("business_key"),
	CONSTRAINT "store_operations_operation_id_unique" UNIQUE("operation_id")
);
--> statement-breakpoint
ALTER TABLE "store_operations" ADD CONSTRAINT "store_operations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_operations_user_idx" ON "store_operations" USING btree ("user_id","order_id");