/**
 * Two providers on their own. The ledger (the refunds of a store with no payment account): one
 * row per idempotency key, the same key with other parameters refused as Stripe refuses it, and
 * the lookup by operation. The warehouse's webhook, against a local HTTP receiver: a signed
 * Standard Webhook, which answers are delivered, unknown (retried) or final, and a lookup that
 * can only say "absent". The relay's use of both is in effects.test.ts and warehouse-canary.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/db";
import type { AddressChangedPayload, AlertPayload, RefundPayload } from "@/lib/effects/kinds";
import { alertWebhook } from "@/lib/effects/providers/alert";
import { ledgerProvider } from "@/lib/effects/providers/ledger";
import { warehouseWebhook, webhookBody } from "@/lib/effects/providers/warehouse";
import { useTestDatabase } from "../helpers/db";

const refund = (orderId: string, amount: number) =>
  ({ orderId, paymentRef: `pi_${orderId}`, amount, currency: "EUR" }) as RefundPayload;
const ref = (n: string) => ({
  effectId: `eff-${n}`,
  actionId: `act-${n}`,
  operationId: `op-${n}`,
  idempotencyKey: `key-${n}`,
});

describe("the ledger", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("one row per key; the same key with another amount or order is refused", async () => {
    const first = await ledgerProvider.refund(refund("9001", 1500), ref("l1"));
    expect(first).toEqual({
      kind: "succeeded",
      providerRef: expect.stringMatching(/^rl_[0-9a-f]{24}$/),
    });
    expect(await ledgerProvider.refund(refund("9001", 1500), ref("l1"))).toEqual(first);
    expect(await ledgerProvider.refund(refund("9001", 1499), ref("l1"))).toEqual({
      kind: "definite",
      code: "idempotency_error",
    });
    expect(await ledgerProvider.refund(refund("9002", 1500), ref("l1"))).toEqual({
      kind: "definite",
      code: "idempotency_error",
    });
  });

  it("the lookup finds the operation's refund, and only that", async () => {
    expect(await ledgerProvider.findRefund(refund("9003", 100), ref("l2"))).toEqual({
      kind: "absent",
    });
    const made = await ledgerProvider.refund(refund("9003", 100), ref("l2"));
    expect(await ledgerProvider.findRefund(refund("9003", 100), ref("l2"))).toEqual({
      kind: "found",
      providerRef: (made as { providerRef: string }).providerRef,
    });
    expect(await ledgerProvider.findRefund(refund("9003", 100), ref("l3"))).toEqual({
      kind: "absent",
    });
  });
});

describe("the ledger when our own database does not answer", () => {
  it("the refund and the lookup are unknown, not failed and not absent", async () => {
    await useTestDatabase();
    const saved = {
      DATABASE_PATH: process.env.DATABASE_PATH,
      DATABASE_URL: process.env.DATABASE_URL,
    };
    // Unreachable on either dialect: no server on port 1; a file under a file cannot be opened.
    if (process.env.DATABASE_URL) process.env.DATABASE_URL = "postgres://root@127.0.0.1:1/none";
    else process.env.DATABASE_PATH = "/dev/null/unreachable.db";
    try {
      expect(await ledgerProvider.refund(refund("9101", 700), ref("down"))).toEqual({
        kind: "indeterminate",
        code: "ledger_unavailable",
      });
      expect(await ledgerProvider.findRefund(refund("9101", 700), ref("down"))).toEqual({
        kind: "indeterminate",
        code: "ledger_unavailable",
      });
    } finally {
      await closeDb();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    // Back: nothing was written while it was down.
    expect(await ledgerProvider.findRefund(refund("9101", 700), ref("down"))).toEqual({
      kind: "absent",
    });
  });
});

describe("the warehouse's webhook", () => {
  const secret = `whsec_${Buffer.from("a-warehouse-secret-of-32-bytes!!").toString("base64")}`;
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let status = 204;
  let url = "";
  let server: http.Server;

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status).end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const payload = {
    webhookId: "msg_change_1",
    orderId: "7718",
    changeId: "AC-1",
    changedAt: "2026-06-01T10:00:00.000Z",
    from: null,
    to: { name: "Anna", line1: "Hauptstr. 1", postalCode: "10115", city: "Berlin", country: "DE" },
  } as unknown as AddressChangedPayload;

  it("posts a Standard Webhook the receiver can verify, as JSON", async () => {
    status = 204;
    const now = new Date();
    const hook = warehouseWebhook({ url, secret, timeoutMs: 2000 });
    expect(await hook.send(payload, now)).toEqual({
      kind: "succeeded",
      providerRef: "msg_change_1",
    });
    const got = received.at(-1)!;
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-id"]).toBe("msg_change_1");
    expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(got.body).toBe(webhookBody(payload));
    expect(JSON.parse(got.body)).toMatchObject({
      type: "warehouse.address_changed",
      timestamp: "2026-06-01T10:00:00.000Z",
      data: { orderId: "7718", changeId: "AC-1", from: null, to: { city: "Berlin" } },
    });
    // Verified as the receiver would: the signature covers the id, the time and the body.
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [
        h,
        String(got.headers[h]),
      ]),
    );
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({
      data: { orderId: "7718" },
    });
    expect(() => new Webhook(secret).verify(got.body.replace("7718", "7719"), headers)).toThrow();
  });

  it("5xx, 408, 409 and 429 leave it unknown; another 4xx is final; a 2xx is delivered", async () => {
    const hook = warehouseWebhook({ url, secret, timeoutMs: 2000 });
    for (const s of [500, 503, 408, 409, 429]) {
      status = s;
      expect(await hook.send(payload), String(s)).toEqual({
        kind: "indeterminate",
        code: `http_${s}`,
      });
    }
    for (const s of [400, 404, 410, 422]) {
      status = s;
      expect(await hook.send(payload), String(s)).toEqual({ kind: "definite", code: `http_${s}` });
    }
    status = 200;
    expect(await hook.send(payload)).toEqual({ kind: "succeeded", providerRef: "msg_change_1" });
  });

  it("nothing listening is a connection error; a webhook cannot be looked up", async () => {
    const hook = warehouseWebhook({ url: "http://127.0.0.1:1/hooks", secret, timeoutMs: 2000 });
    expect(await hook.send(payload)).toEqual({ kind: "indeterminate", code: "connection_error" });
    expect(await hook.lookup()).toEqual({ kind: "absent" });
  });

  it("a receiver that takes longer than the timeout leaves it unknown, as a timeout", async () => {
    const silent = http.createServer(() => {
      // Reads the request and never answers.
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const port = (silent.address() as AddressInfo).port;
      const hook = warehouseWebhook({
        url: `http://127.0.0.1:${port}/hooks`,
        secret,
        timeoutMs: 200,
      });
      expect(await hook.send(payload)).toEqual({ kind: "indeterminate", code: "timeout" });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it("the alert webhook is signed the same way, and cannot be looked up either", async () => {
    status = 200;
    const alert = {
      webhookId: "msg_alert_1",
      alertId: "al_1",
      kind: "relay_stalled",
      fingerprint: "fp1",
      detail: { stuck: 3 },
      at: "2026-06-01T10:00:00.000Z",
    } as unknown as AlertPayload;
    const hook = alertWebhook({ url, secret, timeoutMs: 2000 });
    expect(await hook.send(alert)).toEqual({ kind: "succeeded", providerRef: "msg_alert_1" });
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({
      type: "alert.raised",
      data: { id: "al_1", fingerprint: "fp1" },
    });
    expect(await hook.lookup()).toEqual({ kind: "absent" });
  });
});
