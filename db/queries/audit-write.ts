import "server-only";
import { getDb, one } from "../index";
import { auditEvents } from "../schema";
import { bumpDaily, dayOf } from "./metrics";
import { writeTransaction } from "./tx";

export type NewAuditEvent = typeof auditEvents.$inferInsert;

/**
 * Appends one audit event and counts it in the day's rollup (status by tool) in the same
 * transaction (a savepoint when the caller's transaction is already open), so the metrics page
 * never disagrees with the trail. Append-only: nothing in the app updates or deletes these rows.
 */
export async function insertAuditEvent(event: NewAuditEvent): Promise<number> {
  return writeTransaction(async () => {
    const row = one(
      await getDb().insert(auditEvents).values(event).returning({ id: auditEvents.id }),
    );
    const day = dayOf(event.at);
    await bumpDaily([
      { day, name: `audit.${event.status}`, key: event.tool, n: 1 },
      // The events of a pending action's life (proposal, decision) are counted again on their
      // own, so the page can tell a confirm from a read that succeeded.
      ...(event.actionId ? [{ day, name: `action.${event.status}`, key: event.tool, n: 1 }] : []),
    ]);
    return row.id;
  });
}
