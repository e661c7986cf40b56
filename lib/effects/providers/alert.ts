/**
 * The alert webhook (ALERT_WEBHOOK_URL): an alert (lib/alerts) as a Standard Webhook, signed
 * with ALERT_WEBHOOK_SECRET exactly like the warehouse's (`webhook-id` is the alert's `msg_…`,
 * the same on every retry). A webhook cannot be looked up: the lookup always answers "absent".
 */
import "server-only";
import { Webhook } from "standardwebhooks";
import type { AlertPayload } from "../kinds";
import type { LookupOutcome, SendOutcome } from "./types";
import { postSignedWebhook, type WarehouseConfig } from "./warehouse";

/** `{"type": "alert.raised", "timestamp", "data": {"id", "kind", "fingerprint", "detail"}}`. */
export function alertBody(p: AlertPayload): string {
  return JSON.stringify({
    type: "alert.raised",
    timestamp: p.at,
    data: { id: p.alertId, kind: p.kind, fingerprint: p.fingerprint, detail: p.detail },
  });
}

export function alertWebhook(c: WarehouseConfig) {
  const signer = new Webhook(c.secret);
  return {
    send: (p: AlertPayload): Promise<SendOutcome> =>
      postSignedWebhook(c, signer, p.webhookId, alertBody(p)),
    lookup: async (): Promise<LookupOutcome> => ({ kind: "absent" }),
  };
}
