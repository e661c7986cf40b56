/**
 * Staff receiving returns (lib/returns/receive.ts) beyond our own returns: a return at the
 * connected store is marked received here once, and its receipt and refund at the store go into
 * the outbox as one `store.receive_return` effect (no refund of ours); a store operation that is
 * not a return is no return to receive; the staff list merges ours and the store's newest first;
 * the action page finds a store return by its action; and a receipt rings the relay at once.
 * Store operations are real rows in a real SQLite file, as the confirm writes them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEffectsForAction } from "@/db/queries/effects";
import { insertStoreOperationIfAbsent } from "@/db/queries/store-operations";
import { auditEvents } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { startRelay, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { listStaffReturns, markReturnReceived, staffReturnOfAction } from "@/lib/returns/receive";
import { type Core, newChat, proposeWith, refusal, setupCore } from "./action-core/fixtures";

const ENV = { EFFECTS_POLL_SECONDS: "3600", EFFECTS_RETRY_BASE_MS: "1", EFFECTS_RETRY_MAX_MS: "5" };

let core: Core;
beforeAll(async () => {
  core = await setupCore(ENV);
});
afterAll(async () => {
  await stopRelay();
  for (const k of Object.keys(ENV)) delete process.env[k];
  resetEnv();
});

/** A return (or another operation) at the store, as the confirm records it. */
async function atStore(
  id: string,
  over: { kind?: "return" | "cancel"; createdAt?: Date; amount?: number } = {},
) {
  const kind = over.kind ?? "return";
  const operationId = `op-${id.toLowerCase()}`;
  await insertStoreOperationIfAbsent({
    id,
    businessKey: `medusa:order_${id}:${kind}`,
    backend: "medusa",
    kind,
    storeOrderRef: `order_${id}`,
    orderId: "1007",
    userId: core.anna,
    reason: kind === "return" ? "damaged" : "changed_mind",
    comment: null,
    refundAmountMinor: over.amount ?? 12900,
    refundCurrency: "EUR",
    refundDestination: "the original payment method",
    actionId: operationId,
    operationId,
    createdAt: over.createdAt ?? new Date(),
  });
  return { id, actionId: operationId };
}

/** A return of ours, confirmed in a chat at `now`. */
async function ourReturn(orderId: string, now: Date, userId = core.anna) {
  const chat = await newChat(core.db, userId, now);
  const action = await proposeWith(
    "create_return_request",
    userId,
    chat,
    { orderId, reason: "damaged", comment: null },
    { now },
  );
  const done = await confirmAction({ actionId: action.id, userId, now });
  return { id: (done.result as unknown as { requestId: string }).requestId, actionId: action.id };
}

const receiptAudit = async (requestId: string) =>
  (
    await core.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "staff:mark_return_received"))
  ).filter((e) => (e.arguments as { requestId: string }).requestId === requestId);

describe("the relay", () => {
  // First in the file: no effect of another case is pending or retrying, so only a ring wakes it.
  it("a receipt rings it at once: the refund is carried out with no poll (EFFECTS_POLL_SECONDS is an hour)", async () => {
    const r = await ourReturn("7718", new Date());
    startRelay();
    try {
      // Its first pass mails the return's confirmation; then it sleeps for the poll.
      expect(await settled(r.actionId, "mail.return_confirmed")).toBe("succeeded");
      await markReturnReceived({ requestId: r.id, staffId: core.staff });
      expect(await settled(r.actionId, "payment.refund")).toBe("succeeded");
    } finally {
      await stopRelay();
    }
  });
});

/** The effect's status once the relay settled it (or still pending after five seconds). */
async function settled(actionId: string, kind: string) {
  const find = async () =>
    (await listEffectsForAction({ actionId })).find((e) => e.kind === kind)?.status;
  let status = await find();
  for (
    let i = 0;
    i < 250 && (status === undefined || status === "pending" || status === "in_flight");
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await find();
  }
  return status;
}

describe("a return at the store", () => {
  it("is received once: one store.receive_return effect, the staff view, the audit; then a conflict", async () => {
    const r = await atStore("RR-STORE0001", { amount: 12900 });
    const now = new Date("2026-12-01T09:30:00.000Z");

    const { return: received } = await markReturnReceived({
      requestId: r.id,
      staffId: core.staff,
      now,
    });
    expect(received).toEqual({
      id: r.id,
      orderId: "1007",
      actionId: r.actionId,
      state: "received",
      receivedAt: now.toISOString(),
      receivedBy: core.staff,
      refund: {
        amount: 12900,
        currency: "EUR",
        status: "pending",
        effectId: expect.any(String),
      },
    });

    // The store receives it and refunds it: one effect under the return's operation id.
    const effects = await listEffectsForAction({ actionId: r.actionId });
    expect(effects.map((e) => [e.kind, e.status, e.idempotencyKey, e.id])).toEqual([
      [
        "store.receive_return",
        "pending",
        `rd-${r.actionId}-store.receive_return`,
        received.refund.effectId,
      ],
    ]);
    expect(effects[0]!.payload).toEqual({
      backend: "medusa",
      storeOrderRef: "order_RR-STORE0001",
      orderId: "1007",
      returnId: r.id,
      amount: 12900,
      currency: "EUR",
    });

    // A second receipt changes nothing and says how the return stands.
    const later = new Date("2026-12-01T10:00:00.000Z");
    const again = await refusal(
      markReturnReceived({ requestId: r.id, staffId: core.boris, now: later }),
    );
    expect(again.code).toBe("conflict");
    expect(again.message).toBe("This return was already marked received.");
    expect(again.details.return).toMatchObject({
      id: r.id,
      state: "received",
      receivedAt: now.toISOString(),
      receivedBy: core.staff,
    });
    expect(await listEffectsForAction({ actionId: r.actionId })).toHaveLength(1);

    const audit = await receiptAudit(r.id);
    expect(
      audit.map((e) => [e.status, e.errorCode, e.access, e.userId, e.actionId, e.at.getTime()]),
    ).toEqual([
      ["success", null, "write", core.staff, r.actionId, now.getTime()],
      ["business_error", "already_received", "write", core.boris, r.actionId, later.getTime()],
    ]);
    expect(audit[0]!.result).toEqual({
      requestId: r.id,
      orderId: "1007",
      store: { backend: "medusa", orderRef: "order_RR-STORE0001" },
      receivedAt: now.toISOString(),
      receivedBy: core.staff,
      refund: ["store.receive_return"],
    });
    // The refusal names the first receipt, not the second call's.
    expect(audit[1]!.result).toEqual({
      requestId: r.id,
      receivedAt: now.toISOString(),
      receivedBy: core.staff,
    });
  });

  it("a store cancellation is no return: not found, nothing received or scheduled", async () => {
    const c = await atStore("RR-CANCEL01", { kind: "cancel" });
    const e = await refusal(markReturnReceived({ requestId: c.id, staffId: core.staff }));
    expect([e.code, e.message]).toEqual(["not_found", "No such return request."]);
    expect(await listEffectsForAction({ actionId: c.actionId })).toEqual([]);
    expect(await receiptAudit(c.id)).toEqual([]);
    expect(await staffReturnOfAction(c.actionId)).toBeNull();
  });

  it("the action page finds the store return its action made", async () => {
    const r = await atStore("RR-STORE0002");
    expect(await staffReturnOfAction(r.actionId)).toMatchObject({
      id: r.id,
      orderId: "1007",
      actionId: r.actionId,
      state: "requested",
      refund: { amount: 12900, currency: "EUR", status: null, effectId: null },
    });
  });
});

describe("the staff list, ours and the store's together", () => {
  it("newest first across both; at the same moment, the greater id first", async () => {
    const base = Date.now() - 3_600_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const oldest = await ourReturn("9307", at(0));
    const middle = await atStore("RR-STORE0003", { createdAt: at(1) });
    const newest = await atStore("RR-STORE0004", { createdAt: at(3) });
    // Three at one moment: the store's ids are the smallest and greatest an id can be.
    const same = await ourReturn("4410", at(4), core.boris);
    const high = await atStore("RR-ZZZZZZZZ", { createdAt: at(4) });
    const low = await atStore("RR-22222222", { createdAt: at(4) });

    const mine = new Set([oldest, middle, newest, same, high, low].map((r) => r.id as string));
    const order = (await listStaffReturns()).map((r) => r.id).filter((id) => mine.has(id));
    expect(order).toEqual([high.id, same.id, low.id, newest.id, middle.id, oldest.id]);
    expect(await listStaffReturns({ limit: 2 })).toEqual((await listStaffReturns()).slice(0, 2));
  });
});
