-- The chart's counters start from what an existing database already holds: every audit event
-- counted into its 30 days, its day and its hour (AUDIT_COUNT_SPANS in db/constants.ts).
INSERT INTO "audit_status_counts" ("span_hours", "bucket", "success", "business_error", "timeout", "rejected", "technical_error", "confirmation_required", "cancelled", "expired", "superseded", "stale")
SELECT 720, "at" / 2592000000,
  count(*) FILTER (WHERE "status" = 'success'),
  count(*) FILTER (WHERE "status" = 'business_error'),
  count(*) FILTER (WHERE "status" = 'timeout'),
  count(*) FILTER (WHERE "status" = 'rejected'),
  count(*) FILTER (WHERE "status" = 'technical_error'),
  count(*) FILTER (WHERE "status" = 'confirmation_required'),
  count(*) FILTER (WHERE "status" = 'cancelled'),
  count(*) FILTER (WHERE "status" = 'expired'),
  count(*) FILTER (WHERE "status" = 'superseded'),
  count(*) FILTER (WHERE "status" = 'stale')
FROM "audit_events" GROUP BY 2;
--> statement-breakpoint
INSERT INTO "audit_status_counts" ("span_hours", "bucket", "success", "business_error", "timeout", "rejected", "technical_error", "confirmation_required", "cancelled", "expired", "superseded", "stale")
SELECT 24, "at" / 86400000,
  count(*) FILTER (WHERE "status" = 'success'),
  count(*) FILTER (WHERE "status" = 'business_error'),
  count(*) FILTER (WHERE "status" = 'timeout'),
  count(*) FILTER (WHERE "status" = 'rejected'),
  count(*) FILTER (WHERE "status" = 'technical_error'),
  count(*) FILTER (WHERE "status" = 'confirmation_required'),
  count(*) FILTER (WHERE "status" = 'cancelled'),
  count(*) FILTER (WHERE "status" = 'expired'),
  count(*) FILTER (WHERE "status" = 'superseded'),
  count(*) FILTER (WHERE "status" = 'stale')
FROM "audit_events" GROUP BY 2;
--> statement-breakpoint
INSERT INTO "audit_status_counts" ("span_hours", "bucket", "success", "business_error", "timeout", "rejected", "technical_error", "confirmation_required", "cancelled", "expired", "superseded", "stale")
SELECT 1, "at" / 3600000,
  count(*) FILTER (WHERE "status" = 'success'),
  count(*) FILTER (WHERE "status" = 'business_error'),
  count(*) FILTER (WHERE "status" = 'timeout'),
  count(*) FILTER (WHERE "status" = 'rejected'),
  count(*) FILTER (WHERE "status" = 'technical_error'),
  count(*) FILTER (WHERE "status" = 'confirmation_required'),
  count(*) FILTER (WHERE "status" = 'cancelled'),
  count(*) FILTER (WHERE "status" = 'expired'),
  count(*) FILTER (WHERE "status" = 'superseded'),
  count(*) FILTER (WHERE "status" = 'stale')
FROM "audit_events" GROUP BY 2;
