CREATE TABLE "audit_status_counts" (
	"span_hours" integer NOT NULL,
	"bucket" integer NOT NULL,
	"success" integer DEFAULT 0 NOT NULL,
	"business_error" integer DEFAULT 0 NOT NULL,
	"timeout" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"technical_error" integer DEFAULT 0 NOT NULL,
	"confirmation_required" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	"superseded" integer DEFAULT 0 NOT NULL,
	"stale" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "audit_status_counts_span_hours_bucket_pk" PRIMARY KEY("span_hours","bucket")
);
