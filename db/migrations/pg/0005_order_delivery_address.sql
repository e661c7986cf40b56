CREATE TABLE "delivery_address_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"user_id" text NOT NULL,
	"from_address" json,
	"to_address" json NOT NULL,
	"action_id" text,
	"operation_id" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	CONSTRAINT "delivery_address_changes_operation_id_unique" UNIQUE("operation_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_line1" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_line2" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_postal_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_city" text;--> statement-breakpoint
ALTER TABLE "delivery_address_changes" ADD CONSTRAINT "delivery_address_changes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_address_changes" ADD CONSTRAINT "delivery_address_changes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_address_changes_order_idx" ON "delivery_address_changes" USING btree ("order_id","created_at");