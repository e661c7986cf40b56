/**
 * Operational alerts: a drift breach that lasted DRIFT_BREACH_WINDOWS windows, a canary's
 * rollback. Raising one is one transaction: the alert row (once per dedupe key, whichever
 * instance gets there first), an audit event, and, with ALERT_WEBHOOK_URL set, an `alert.raised`
 * effect in the outbox, which the relay sends signed exactly like the warehouse's webhook. Staff
 * see every unacknowledged alert as a banner until one of them acknowledges it.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  type AlertRow,
  acknowledgeAlertRow,
  getAlert,
  insertAlertIfAbsent,
  listOpenAlerts,
} from "@/db/queries/alerts";
import { writeTransaction } from "@/db/queries/tx";
import type { AlertView } from "@/lib/api/drift";
import { recordAudit } from "@/lib/audit-log/record";
import { enqueueEffects } from "@/lib/effects/outbox";
import { wakeRelay } from "@/lib/effects/signal";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export const ALERT_KINDS = ["drift.breach", "candidate.rollback"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The audit trail's tool name for an alert's events. */
export const alertAuditTool = (kind: string) => `alert:${kind}`;

export function alertView(a: AlertRow): AlertView {
  return {
    id: a.id,
    kind: a.kind,
    at: a.at.toISOString(),
    fingerprint: a.fingerprint,
    detail: (a.detail ?? {}) as Record<string, unknown>,
    acknowledged: a.acknowledgedAt
      ? { at: a.acknowledgedAt.toISOString(), by: a.acknowledgedBy ?? "" }
      : null,
  };
}

/**
 * Raises the alert unless one with this dedupe key exists. Call inside or outside a transaction;
 * true if this call raised it.
 */
export async function raiseAlert({
  kind,
  dedupeKey,
  fingerprint,
  detail,
  at,
}: {
  kind: AlertKind;
  dedupeKey: string;
  fingerprint: string | null;
  detail: Record<string, unknown>;
  at: Date;
}): Promise<boolean> {
  const id = `al_${randomUUID().replaceAll("-", "")}`;
  const raised = await writeTransaction(async () => {
    const row = await insertAlertIfAbsent({ id, kind, dedupeKey, at, fingerprint, detail });
    if (!row) return false;
    await recordAudit({
      at,
      tool: alertAuditTool(kind),
      status: "success",
      arguments: { alertId: id, kind, fingerprint },
      result: detail,
    });
    const e = env();
    if (e.ALERT_WEBHOOK_URL && e.ALERT_WEBHOOK_SECRET) {
      await enqueueEffects({
        actionId: id,
        now: at,
        effects: [
          {
            kind: "alert.raised",
            payload: {
              webhookId: `msg_${id}`,
              alertId: id,
              kind,
              at: at.toISOString(),
              fingerprint,
              detail,
            },
          },
        ],
      });
    }
    return true;
  });
  if (raised) wakeRelay();
  return raised;
}

export async function openAlerts(): Promise<AlertView[]> {
  return (await listOpenAlerts()).map(alertView);
}

/**
 * A staff member acknowledges an alert: its banner goes. Audited. Acknowledging one already
 * acknowledged changes nothing and answers it as it is; an unknown id is 404.
 */
export async function acknowledgeAlert({
  id,
  staffId,
  now = new Date(),
}: {
  id: string;
  staffId: string;
  now?: Date;
}): Promise<AlertView> {
  return await writeTransaction(async () => {
    const updated = await acknowledgeAlertRow({ id, by: staffId, at: now });
    if (updated) {
      await recordAudit({
        at: now,
        tool: alertAuditTool(updated.kind),
        status: "success",
        actorId: staffId,
        arguments: { alertId: id },
        result: { acknowledged: true },
      });
      return alertView(updated);
    }
    const existing = await getAlert(id);
    if (!existing) throw new AppError("not_found", "No such alert.");
    return alertView(existing);
  });
}
