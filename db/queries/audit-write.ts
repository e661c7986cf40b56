import "server-only";
import { sql } from "drizzle-orm";
import { getDb, one } from "../index";
import { AUDIT_COUNT_SPANS, type AuditStatus, auditEvents, auditStatusCounts } from "../schema";
import { bumpDaily, dayOf, HOUR_MS } from "./metrics";
import { writeTransaction } from "./tx";

export type NewAuditEvent = typeof auditEvents.$inferInsert;

/**
 * Counts one event in the status chart's buckets (its 30 days, day and hour): one statement, one
 * row per span, taken widest first by every writer. On PostgreSQL the writers of one hour queue
 * on its three rows until they commit, as they already do on the busiest daily counters; a
 * transaction that writes events of two hours can still deadlock with another, and
 * writeTransaction retries that (40P01).
 */
async function bumpStatusCounts(at: Date, status: AuditStatus): Promise<void> {
  const c = auditStatusCounts;
  await getDb()
    .insert(c)
    .values(
      AUDIT_COUNT_SPANS.map((spanHours) => ({
        spanHours,
        bucket: Math.floor(at.getTime() / (spanHours * HOUR_MS)),
        [status]: 1,
      })),
    )
    .onConflictDoUpdate({
      target: [c.spanHours, c.bucket],
      set: { [status]: sql`${c[status]} + 1` },
    });
}

/**
 * Appends one audit event and counts it in the day's rollup (status by tool) and in the status
 * chart's buckets in the same transaction (a savepoint when the caller's transaction is already
 * open), so neither the metrics page nor the chart ever disagrees with the trail. Append-only:
 * nothing in the app updates or deletes these rows.
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
    await bumpStatusCounts(event.at, event.status);
    return row.id;
  });
}
