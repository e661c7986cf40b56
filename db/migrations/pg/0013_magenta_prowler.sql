CREATE TABLE "effect_canaries" (
	"kind" text NOT NULL,
	"fingerprint" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"required" integer NOT NULL,
	"confirmed" integer DEFAULT 0 NOT NULL,
	"current_effect_id" text,
	"failed_effect_id" text,
	"last_error_code" text,
	"started_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"settled_at" bigint,
	CONSTRAINT "effect_canaries_kind_fingerprint_pk" PRIMARY KEY("kind","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "probe_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"built_at" bigint NOT NULL,
	"fingerprint" text NOT NULL,
	"profiles" integer NOT NULL,
	"mix" json NOT NULL,
	"probes" json NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turn_profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"fingerprint" text NOT NULL,
	"profile" json NOT NULL
);
--> statement-breakpoint
CREATE INDEX "effect_canaries_started_idx" ON "effect_canaries" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "probe_sets_built_idx" ON "probe_sets" USING btree ("built_at");--> statement-breakpoint
CREATE INDEX "turn_profiles_at_idx" ON "turn_profiles" USING btree ("at");