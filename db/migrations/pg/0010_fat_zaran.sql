CREATE TABLE "candidate_comparisons" (
	"id" text PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"chat_id" text NOT NULL,
	"user_id" text NOT NULL,
	"message_id" text NOT NULL,
	"live_fingerprint" text NOT NULL,
	"candidate_fingerprint" text NOT NULL,
	"live_tools" json NOT NULL,
	"candidate_tools" json NOT NULL,
	"tools_agree" boolean NOT NULL,
	"args_agree" boolean NOT NULL,
	"arg_diffs" json NOT NULL,
	"live_write" boolean NOT NULL,
	"candidate_write" boolean NOT NULL,
	"live_refusals" integer NOT NULL,
	"candidate_refusals" integer NOT NULL,
	"live_answer_chars" integer NOT NULL,
	"candidate_answer_chars" integer NOT NULL,
	"live_latency_ms" integer NOT NULL,
	"candidate_latency_ms" integer NOT NULL,
	"live_tokens" integer,
	"candidate_tokens" integer,
	"candidate_error" text
);
--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "fingerprint" text;--> statement-breakpoint
CREATE INDEX "candidate_comparisons_at_idx" ON "candidate_comparisons" USING btree ("at");--> statement-breakpoint
CREATE INDEX "candidate_comparisons_fingerprint_at_idx" ON "candidate_comparisons" USING btree ("candidate_fingerprint","at");