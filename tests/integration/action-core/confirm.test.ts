/**
 * Confirm and cancel as a client sees them: what gets created, what a second click answers,
 * and the final state and audit trail of every path (docs/api.md "Actions").
 */
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { insertReturnRequestIfAbsent } from "@/db/queries/return-requests";
import { orders, pendingActions } from "@/db/schema";
import { cancelAction, confirmAction, getActionForUser } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { setRelayBell } from "@/lib/effects/signal";
import { AppError } from "@/lib/errors";
import { RETURN_REQUEST_RESULT } from "@/lib/tools/shapes";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  orderRow,
  propose,
  returnsFor,
  rowCounts,
  setupCore,
} from "./fixtures";

let core: Core;
let chat: string;
beforeEach(async () => {
  core = await setupCore();
  chat = await newChat(core.db, core.anna);
});

/** The AppError a call throws, as the HTTP layer would render it. */
async function refusal(fn: () => unknown) {
  try {
    await fn();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, httpStatus: e.status, ...e.details };
    throw e;
  }
  throw new Error("expected a refusal");
}

const statuses = async (actionId: string) =>
  (await auditFor(core.db, actionId)).map((e) => e.status);

describe("confirm", () => {
  it("creates the return from the order's own data and audits success", async () => {
    const action = await propose(core.anna, chat, {
      orderId: "7718",
      reason: "damaged",
      comment: "Dented lid",
    });
    const version = (await orderRow(core.db, "7718")).version;
    const { action: done, result } = await confirmReturn({
      actionId: action.id,
      userId: core.anna,
    });
    expect(result).toMatchObject({
      orderId: "7718",
      status: "created",
      createdNow: true,
      reason: "damaged",
      comment: "Dented lid",
      refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" },
    });
    expect(done).toMatchObject({
      id: action.id,
      status: "executed",
      decidedAt: expect.any(String),
    });
    expect(await returnsFor(core.db, "7718")).toEqual([
      expect.objectContaining({
        id: result.requestId,
        operationId: action.id,
        actionId: action.id,
        userId: core.anna,
        refundAmountMinor: 25890,
      }),
    ]);
    expect((await orderRow(core.db, "7718")).version).toBe(version + 1);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "success"]);
    expect((await auditFor(core.db, action.id))[1]).toMatchObject({
      result: { requestId: result.requestId, createdNow: true },
    });
  });

  it("a replayed confirm answers already_decided and executes nothing", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await confirmAction({ actionId: action.id, userId: core.anna });
    const before = await rowCounts(core.db);
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toEqual({
      code: "already_decided",
      httpStatus: 409,
      status: "executed",
    });
    expect(await rowCounts(core.db)).toEqual(before);
  });

  it("another customer's confirm or cancel is not_found and leaves the action pending", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.boris })),
    ).toMatchObject({ code: "not_found", httpStatus: 404 });
    expect(
      await refusal(async () => await cancelAction({ actionId: action.id, userId: core.boris })),
    ).toMatchObject({
      code: "not_found",
    });
    expect(
      await refusal(
        async () => await confirmAction({ actionId: "no-such-action", userId: core.anna }),
      ),
    ).toMatchObject({ code: "not_found" });
    expect(await getActionForUser({ actionId: action.id, userId: core.boris })).toBeNull();
    expect((await actionRow(core.db, action.id)).status).toBe("pending");
  });

  it("a changed order makes the action stale (409) and writes nothing", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    // Someone edits the order after the card was shown (e.g. staff change the payment method).
    await core.db
      .update(orders)
      .set({ paymentMethod: "Gift card", version: sql`${orders.version} + 1` })
      .where(eq(orders.id, "7718"));
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toEqual({
      code: "stale",
      httpStatus: 409,
      status: "stale",
      reason: "order_changed",
    });
    expect(await actionRow(core.db, action.id)).toMatchObject({
      status: "stale",
      errorCode: "order_changed",
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "stale"]);
    expect(await returnsFor(core.db, "7718")).toEqual([]);
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "stale",
    });
  });

  it("a return window that closes between proposal and confirm makes the action stale", async () => {
    const deliveredAt = (await orderRow(core.db, "7718")).deliveredAt!.getTime();
    const windowEnd = deliveredAt + 30 * 86_400_000;
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: new Date(windowEnd - 60_000) },
    );
    expect(
      await refusal(
        async () =>
          await confirmAction({
            actionId: action.id,
            userId: core.anna,
            now: new Date(windowEnd + 60_000),
          }),
      ),
    ).toMatchObject({
      code: "stale",
      reason: "return_window_passed",
    });
    expect(await returnsFor(core.db, "7718")).toEqual([]);
  });

  it("tampered stored arguments fail the hash check: rolled back, failed, technical_error", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await core.db
      .update(pendingActions)
      .set({ arguments: { orderId: "9307", reason: "damaged", comment: null } })
      .where(eq(pendingActions.id, action.id));
    const version = (await orderRow(core.db, "9307")).version;
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "internal_error",
      httpStatus: 500,
    });
    expect(await actionRow(core.db, action.id)).toMatchObject({
      status: "failed",
      errorCode: "payload_hash_mismatch",
      decidedBy: core.anna,
      approvedBy: null,
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "technical_error"]);
    expect(await returnsFor(core.db, "9307")).toEqual([]);
    expect((await orderRow(core.db, "9307")).version).toBe(version);
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "already_decided",
      status: "failed",
    });
  });

  it("stored arguments its schema no longer accepts fail the action as invalid_stored_arguments", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await core.db
      .update(pendingActions)
      .set({ arguments: { orderId: "77", reason: "damaged", comment: null, refund: 999999 } })
      .where(eq(pendingActions.id, action.id));
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({ code: "internal_error", httpStatus: 500 });
    expect(await actionRow(core.db, action.id)).toMatchObject({
      status: "failed",
      errorCode: "invalid_stored_arguments",
    });
    expect(await returnsFor(core.db, "7718")).toEqual([]);
  });

  it("stores and returns a hostile comment as text: SQL, HTML, emoji and RTL scripts exactly, zero-width and bidi overrides removed", async () => {
    const typed =
      '\'); DROP TABLE return_requests;-- <script>alert("x")</script> 👩‍👩‍👧‍👦🇺🇦 zero\u200Bwidth\u200D join \u202Eevil\u202C שלום עולם مرحبا';
    // The family keeps its joiners; the stray joiner, the zero-width space and the override go.
    const comment =
      '\'); DROP TABLE return_requests;-- <script>alert("x")</script> 👩‍👩‍👧‍👦🇺🇦 zerowidth join evil שלום עולם مرحبا';
    const action = await propose(core.anna, chat, {
      orderId: "7718",
      reason: "other",
      comment: typed,
    });
    // The arguments are a union over every write tool's; this one is a return's.
    expect((action.arguments as { comment?: unknown }).comment).toBe(comment);
    const { result } = await confirmReturn({ actionId: action.id, userId: core.anna });
    expect(result.comment).toBe(comment);
    expect((await returnsFor(core.db, "7718"))[0]?.comment).toBe(comment);
    const stored = await getActionForUser({ actionId: action.id, userId: core.anna });
    expect((stored?.arguments as { comment?: unknown } | undefined)?.comment).toBe(comment);
  });
});

describe("cancel", () => {
  it("cancels without running anything; a later confirm has nothing to confirm", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    const before = await rowCounts(core.db);
    expect((await cancelAction({ actionId: action.id, userId: core.anna })).action).toMatchObject({
      status: "cancelled",
      decidedAt: expect.any(String),
    });
    expect(await rowCounts(core.db)).toEqual({ ...before, auditEvents: before.auditEvents + 1 });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "cancelled"]);
    // Audited as the source course does: the code user_cancelled, and a result saying nothing ran.
    expect((await auditFor(core.db, action.id)).at(-1)).toMatchObject({
      userId: core.anna,
      actorId: null,
      errorCode: "user_cancelled",
      result: { written: false, status: "cancelled" },
    });
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toEqual({
      code: "already_decided",
      httpStatus: 409,
      status: "cancelled",
    });
    expect(await returnsFor(core.db, "7718")).toEqual([]);
  });

  it("cancel after confirm answers already_decided and the return stays", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await confirmAction({ actionId: action.id, userId: core.anna });
    expect(
      await refusal(async () => await cancelAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "already_decided",
      status: "executed",
    });
    expect(await returnsFor(core.db, "7718")).toHaveLength(1);
  });

  it("a superseded action can be neither confirmed nor cancelled (409 superseded)", async () => {
    const first = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "defective",
    });
    expect(
      await refusal(async () => await confirmAction({ actionId: first.id, userId: core.anna })),
    ).toEqual({
      code: "superseded",
      httpStatus: 409,
      status: "superseded",
    });
    expect(
      await refusal(async () => await cancelAction({ actionId: first.id, userId: core.anna })),
    ).toMatchObject({
      code: "superseded",
    });
  });
});

describe("one return per order", () => {
  it("asking again after a return exists answers with it (createdNow: false), no card", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    const { result } = await confirmReturn({ actionId: action.id, userId: core.anna });
    const before = await rowCounts(core.db);
    const again = await executeToolCall(
      "create_return_request",
      { orderId: "7718", reason: "defective" },
      { userId: core.anna, chatId: await newChat(core.db, core.anna) },
    );
    expect(again).toEqual({
      kind: "existing",
      tool: "create_return_request",
      data: { ...result, createdNow: false },
    });
    expect(await rowCounts(core.db)).toEqual({ ...before, auditEvents: before.auditEvents + 1 });
  });

  it("two pending actions for one order: the second confirm gets the same request with createdNow: false", async () => {
    const a = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    // Supersede keeps one pending action per order; this copy stands in for any path around it
    // (an older release, a manual edit) to show the database still allows only one return.
    const row = await actionRow(core.db, a.id);
    await core.db.insert(pendingActions).values({ ...row, id: `${a.id}-copy` });
    // The relay's doorbell rings after a confirm that stored effects (the first one's mail), and
    // not for the second, which stored none.
    let rings = 0;
    setRelayBell({ ring: () => void rings++ });
    const first = await confirmAction({ actionId: a.id, userId: core.anna });
    expect(first.effects.length).toBeGreaterThan(0);
    expect(rings).toBe(1);
    const second = await confirmAction({ actionId: `${a.id}-copy`, userId: core.anna });
    setRelayBell(null);
    expect(second.effects).toEqual([]);
    expect(rings).toBe(1);
    expect(first.result?.createdNow).toBe(true);
    expect(second.result).toEqual({ ...first.result, createdNow: false });
    expect(second.action.status).toBe("executed");
    expect(await returnsFor(core.db, "7718")).toHaveLength(1);
  });
});

describe("the UNIQUE order_id guard itself", () => {
  it("a second insert for the same order returns null and leaves exactly one row", async () => {
    const row = (id: string, operationId: string) => ({
      id,
      orderId: "7718",
      userId: core.anna,
      reason: "damaged" as const,
      comment: null,
      refundAmountMinor: 25890,
      refundCurrency: "EUR",
      refundDestination: "Visa •••• 4242",
      actionId: null,
      operationId,
      createdAt: new Date(),
    });
    expect((await insertReturnRequestIfAbsent(row("RR-FIRST000", "op-1")))?.id).toBe("RR-FIRST000");
    expect(await insertReturnRequestIfAbsent(row("RR-SECOND00", "op-2"))).toBeNull();
    expect((await returnsFor(core.db, "7718")).map((r) => r.id)).toEqual(["RR-FIRST000"]);
  });
});

/** confirmAction with the return tool's result shape (the core only knows WriteResult). */
async function confirmReturn(args: Parameters<typeof confirmAction>[0]) {
  const out = await confirmAction(args);
  return { ...out, result: RETURN_REQUEST_RESULT.parse(out.result) };
}
