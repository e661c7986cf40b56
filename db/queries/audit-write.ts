import "server-only";
import { getDb } from "../index";
import { auditEvents } from "../schema";
import { bumpDaily, dayOf } from "./metrics";
import { writeTransaction } from "./tx";

export type NewAuditEvent = typeof auditEvents.$inferInsert;

/**
 * Appends one audit event and counts it in the day's rollup (status by tool) in the same
 * transaction (a savepoint when the caller's transaction is already open), so the metrics page
 * never disagrees with the trail. Append-only: nothing in the app updates or deletes these rows.
 */
export function insertAuditEvent(event: NewAuditEvent): number {
  return writeTransaction(() => {
    const row = getDb().insert(auditEvents).values(event).returning({ id: auditEvents.id }).get();
    const day = dayOf(event.at);
    bumpDaily([
      { day, name: `audit.${event.status}`, key: event.tool, n: 1 },
      // The events of a pending action's life (proposal, decision) are counted again on their
      // own, so the page can tell a confirm from a read that succeeded.
      ...(event.actionId ? [{ day, name: `action.${event.status}`, key: event.tool, n: 1 }] : []),
    ]);
    return row.id;
  });
}
