/**
 * The warehouse's webhook: tells it that an order's delivery address changed
 * (`warehouse.address_changed`, from change_delivery_address). Signed the Standard Webhooks way
 * with the `standardwebhooks` package: `webhook-id` (the change's own id, the same on every retry,
 * so the receiver can drop a duplicate), `webhook-timestamp` (this attempt's), `webhook-signature`
 * (HMAC-SHA256 over id.timestamp.body with WAREHOUSE_WEBHOOK_SECRET, `whsec_…`).
 *
 * A 2xx is delivered. A timeout, a connection error, a 5xx, 408, 409 or 429 leaves the outcome
 * unknown: the relay retries it like any effect (a receiver that already has this webhook-id
 * ignores it). Any other 4xx is the receiver's final no. A webhook cannot be looked up, so the
 * lookup before a retry always answers "absent": sending again is what Standard Webhooks expects.
 */
import "server-only";
import { Webhook } from "standardwebhooks";
import type { AddressChangedPayload, WarehouseEventPayload } from "../kinds";
import type { LookupOutcome, SendOutcome } from "./types";

export type WarehouseConfig = { url: string; secret: string; timeoutMs: number };

/** The body the warehouse receives: Standard Webhooks' recommended envelope. */
export function webhookBody(payload: AddressChangedPayload): string {
  return JSON.stringify({
    type: "warehouse.address_changed",
    timestamp: payload.changedAt,
    data: {
      orderId: payload.orderId,
      changeId: payload.changeId,
      from: payload.from,
      to: payload.to,
    },
  });
}

/** The body of an event a tool composed (`warehouse.event`): the same envelope, its own type. */
export function eventBody(payload: WarehouseEventPayload): string {
  return JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });
}

/**
 * POSTs one signed Standard Webhook. A 2xx is delivered; a timeout, a connection error, a 5xx,
 * 408, 409 or 429 leaves the outcome unknown (retried); any other 4xx is the receiver's final no.
 */
export async function postSignedWebhook(
  c: WarehouseConfig,
  signer: Webhook,
  id: string,
  body: string,
  now = new Date(),
): Promise<SendOutcome> {
  let res: Response;
  try {
    res = await fetch(c.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signer.sign(id, now, body),
      },
      body,
      redirect: "error",
      signal: AbortSignal.timeout(c.timeoutMs),
    });
    // Only the status matters; the body is read and dropped so the connection is freed.
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    const timeout = err instanceof Error && /timeout|abort/i.test(err.name);
    return { kind: "indeterminate", code: timeout ? "timeout" : "connection_error" };
  }
  if (res.ok) return { kind: "succeeded", providerRef: id };
  const s = res.status;
  if (s >= 500 || s === 408 || s === 409 || s === 429)
    return { kind: "indeterminate", code: `http_${s}` };
  return { kind: "definite", code: `http_${s}` };
}

export function warehouseWebhook(c: WarehouseConfig) {
  const signer = new Webhook(c.secret);
  return {
    async send(payload: AddressChangedPayload, now = new Date()): Promise<SendOutcome> {
      return postSignedWebhook(c, signer, payload.webhookId, webhookBody(payload), now);
    },
    async sendEvent(payload: WarehouseEventPayload, now = new Date()): Promise<SendOutcome> {
      return postSignedWebhook(c, signer, payload.webhookId, eventBody(payload), now);
    },
    async lookup(): Promise<LookupOutcome> {
      return { kind: "absent" };
    },
  };
}
