import "server-only";
import { getDb } from "../index";
import { auditEvents } from "../schema";

export type NewAuditEvent = typeof auditEvents.$inferInsert;

/** Appends one audit event. Append-only: nothing in the app updates or deletes these rows. */
export function insertAuditEvent(event: NewAuditEvent): number {
  const row = getDb().insert(auditEvents).values(event).returning({ id: auditEvents.id }).get();
  return row.id;
}
