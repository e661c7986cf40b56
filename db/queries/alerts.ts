/** Operational alerts (lib/alerts): raised once per dedupe key, acknowledged by staff. */
import "server-only";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { first, getDb } from "../index";
import { alerts } from "../schema";

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlertRow = typeof alerts.$inferInsert;

/** The new row, or null when an alert with this dedupe key exists already (another instance). */
export async function insertAlertIfAbsent(row: NewAlertRow): Promise<AlertRow | null> {
  return first(await getDb().insert(alerts).values(row).onConflictDoNothing().returning());
}

export async function listOpenAlerts(limit = 20): Promise<AlertRow[]> {
  return getDb()
    .select()
    .from(alerts)
    .where(isNull(alerts.acknowledgedAt))
    .orderBy(desc(alerts.at))
    .limit(limit);
}

export async function listRecentAlerts(limit = 50): Promise<AlertRow[]> {
  return getDb().select().from(alerts).orderBy(desc(alerts.at)).limit(limit);
}

/** The newest alert of a kind for a fingerprint raised after `after`, or null. */
export async function latestAlertAfter({
  kind,
  fingerprint,
  after,
}: {
  kind: string;
  fingerprint: string;
  after: Date;
}): Promise<AlertRow | null> {
  return first(
    await getDb()
      .select()
      .from(alerts)
      .where(and(eq(alerts.kind, kind), eq(alerts.fingerprint, fingerprint), gt(alerts.at, after)))
      .orderBy(desc(alerts.at))
      .limit(1),
  );
}

export async function getAlert(id: string): Promise<AlertRow | null> {
  return first(await getDb().select().from(alerts).where(eq(alerts.id, id)));
}

/** Marks it acknowledged unless it already is; the updated row, or null if nothing changed. */
export async function acknowledgeAlertRow({
  id,
  by,
  at,
}: {
  id: string;
  by: string;
  at: Date;
}): Promise<AlertRow | null> {
  return first(
    await getDb()
      .update(alerts)
      .set({ acknowledgedAt: at, acknowledgedBy: by })
      .where(and(eq(alerts.id, id), isNull(alerts.acknowledgedAt)))
      .returning(),
  );
}
