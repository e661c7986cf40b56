/**
 * The write tools' own steps as the action core calls them (plan, commit, findExisting,
 * findEffect), on a real seeded SQLite file: what a commit answers when the order is gone or moved
 * since the plan, what it writes and which effects it hands to the outbox, for the built-in store
 * and for an order of the connected store (where the commit only records the operation and queues
 * the store's write: nothing is sent to a store here), and how crash recovery and the business key
 * find what was written. Also what get_order_status says about a delivery estimate, and what the
 * tools answer when the store does not (a real HTTP server that answers 503).
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertCancellationIfAbsent, listCancellationsForOrder } from "@/db/queries/cancellations";
import {
  getAddressChangeByOperationId,
  insertAddressChangeIfAbsent,
} from "@/db/queries/delivery-address-changes";
import { listReturnRequestsForOrder } from "@/db/queries/return-requests";
import {
  getStoreOperationByOperationId,
  insertStoreOperationIfAbsent,
} from "@/db/queries/store-operations";
import { setStoreCustomerId } from "@/db/queries/users";
import { orders } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { cancelOrder } from "@/lib/tools/cancel-order";
import { changeDeliveryAddress } from "@/lib/tools/change-delivery-address";
import { createReturnRequest } from "@/lib/tools/create-return-request";
import { getOrderStatus } from "@/lib/tools/get-order-status";
import { ToolBusinessError, type WriteTool } from "@/lib/tools/types";
import { writeEffectOnce } from "@/lib/tools/write-effect";
import {
  actionRow,
  type Core,
  DAY,
  newChat,
  orderRow,
  proposeWith,
  setupCore,
} from "./action-core/fixtures";

let core: Core;

const AT_STORE = { backend: "medusa", ref: "order_01STORE", updatedAt: "2026-05-04T10:00:00.000Z" };

/** The tool's plan for these arguments, as the core makes it before storing the action. */
async function planned<T extends WriteTool>(tool: T, userId: string, raw: unknown) {
  const args = tool.args.parse(raw);
  const { plan, target } = await tool.plan(args, { userId, chatId: "chat", now: new Date() });
  return { args, plan: plan as Record<string, unknown>, target };
}

/** The tool's commit as the confirm calls it (its own action id, the stored plan and target). */
function commit<T extends WriteTool>(
  tool: T,
  p: Awaited<ReturnType<typeof planned<T>>>,
  over: { userId?: string; version?: number; plan?: object; now?: Date; actionId?: string } = {},
) {
  return tool.commit(p.args, {
    actionId: over.actionId ?? randomUUID(),
    userId: over.userId ?? core.anna,
    target: { ...p.target, version: over.version ?? p.target.version },
    plan: tool.planSchema.parse(over.plan ?? p.plan),
    now: over.now ?? new Date(),
  });
}

/** The business error a plan was refused with. */
async function refusedWith(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ToolBusinessError)) throw new Error(`expected a refusal, got ${err}`);
  return { code: err.code, message: err.message };
}

const GONE = { kind: "stale", code: "order_not_found", message: "The order no longer exists." };

beforeEach(async () => {
  core = await setupCore();
});

describe("cancel_order", () => {
  const args = { orderId: "3004", reason: "changed_mind", comment: null } as const;

  it("refuses an unknown order and a shipped one, saying why", async () => {
    expect(
      await refusedWith(planned(cancelOrder, core.anna, { ...args, orderId: "0000" })),
    ).toEqual({ code: "order_not_found", message: "No order 0000 was found for this customer." });
    expect(
      await refusedWith(planned(cancelOrder, core.boris, { ...args, orderId: "2255" })),
    ).toEqual({
      code: "already_shipped",
      message:
        "Order 2255 has already shipped (status: shipped), so it can no longer be cancelled. Once it is delivered, the customer can ask for a return instead.",
    });
  });

  it("the proposal's target is the order at its version", async () => {
    const action = await proposeWith(
      "cancel_order",
      core.anna,
      await newChat(core.db, core.anna),
      args,
    );
    expect(await actionRow(core.db, action.id)).toMatchObject({
      targetType: "order",
      targetId: "3004",
      targetVersion: (await orderRow(core.db, "3004")).version,
    });
  });

  it("an order that is no longer the customer's, or moved since the plan: stale, nothing written", async () => {
    const p = await planned(cancelOrder, core.anna, args);
    expect(await commit(cancelOrder, p, { userId: core.boris })).toEqual(GONE);
    expect(await commit(cancelOrder, p, { version: p.target.version - 1 })).toEqual({
      kind: "stale",
      code: "order_changed",
      message: "The order changed (it may have shipped) after the cancellation was proposed.",
    });
    expect(await listCancellationsForOrder("3004")).toEqual([]);
    expect((await orderRow(core.db, "3004")).status).toBe("processing");
  });

  it("hands the refund of what was paid to the outbox, and none for an order that cost nothing", async () => {
    const order = await orderRow(core.db, "3004");
    const done = await commit(cancelOrder, await planned(cancelOrder, core.anna, args));
    expect(done).toMatchObject({
      kind: "done",
      effects: [
        {
          kind: "payment.refund",
          payload: {
            orderId: "3004",
            paymentRef: order.paymentRef,
            amount: order.totalMinor,
            currency: order.currency,
          },
        },
      ],
    });

    await core.db.update(orders).set({ totalMinor: 0 }).where(eq(orders.id, "1187"));
    const free = await commit(
      cancelOrder,
      await planned(cancelOrder, core.boris, { ...args, orderId: "1187" }),
      { userId: core.boris },
    );
    expect(free).toMatchObject({ kind: "done", result: { createdNow: true }, effects: [] });
  });

  it("a cancellation that got there first is the answer: createdNow false, nothing new", async () => {
    const p = await planned(cancelOrder, core.anna, args);
    const first = randomUUID();
    await insertCancellationIfAbsent({
      id: "CN-FIRST",
      orderId: "3004",
      userId: core.anna,
      reason: "found_cheaper",
      comment: null,
      refundAmountMinor: 4500,
      refundCurrency: "EUR",
      refundDestination: "Visa •••• 4242",
      actionId: first,
      operationId: first,
      createdAt: new Date(),
    });
    const done = await commit(cancelOrder, p);
    expect(done).toEqual({
      kind: "done",
      result: expect.objectContaining({ cancellationId: "CN-FIRST", createdNow: false }),
    });
    expect(
      await cancelOrder.findExisting(args, { userId: core.anna, chatId: "c", now: new Date() }),
    ).toMatchObject({ cancellationId: "CN-FIRST", createdNow: false, reason: "found_cheaper" });
    expect(
      await cancelOrder.findExisting(args, { userId: core.boris, chatId: "c", now: new Date() }),
    ).toBeNull();
  });

  it("at the store: records the cancellation and queues the store's cancel, the order untouched here", async () => {
    const p = await planned(cancelOrder, core.anna, args);
    const plan = { ...p.plan, store: AT_STORE };
    const actionId = randomUUID();
    const done = await commit(cancelOrder, p, { plan, actionId });
    expect(done).toEqual({
      kind: "done",
      result: {
        cancellationId: expect.stringMatching(/^CN-[2-9A-HJ-NP-Z]{8}$/),
        orderId: "3004",
        status: "cancelled",
        createdNow: true,
        reason: "changed_mind",
        comment: null,
        refund: p.plan.refund,
        cancelledAt: expect.any(String),
      },
      effects: [
        {
          kind: "store.cancel_order",
          payload: {
            backend: "medusa",
            storeOrderRef: "order_01STORE",
            orderId: "3004",
            expectedUpdatedAt: AT_STORE.updatedAt,
          },
        },
      ],
    });
    if (done.kind !== "done") throw new Error("expected done");
    expect((await orderRow(core.db, "3004")).status).toBe("processing");
    expect(await getStoreOperationByOperationId({ operationId: actionId })).toMatchObject({
      kind: "cancel",
      orderId: "3004",
      storeOrderRef: "order_01STORE",
    });
    // The business key (one cancellation per order) and crash recovery find it.
    const ctx = { userId: core.anna, chatId: "c", now: new Date() };
    expect(await cancelOrder.findExisting(args, ctx)).toEqual({
      ...done.result,
      createdNow: false,
    });
    expect(await cancelOrder.findEffect(actionId)).toEqual(done.result);
    expect(await cancelOrder.findEffect(randomUUID())).toBeNull();
    // Another action for the order answers with this one.
    expect(await commit(cancelOrder, p, { plan })).toEqual({
      kind: "done",
      result: { ...done.result, createdNow: false },
    });
  });
});

describe("create_return_request", () => {
  const args = { orderId: "7718", reason: "damaged", comment: null } as const;

  it("refuses an unknown order, saying so", async () => {
    expect(
      await refusedWith(planned(createReturnRequest, core.anna, { ...args, orderId: "0000" })),
    ).toEqual({
      code: "order_not_found",
      message: "No order 0000 was found for this customer.",
    });
  });

  it("an order that is no longer the customer's, or moved since the plan: stale, nothing written", async () => {
    const p = await planned(createReturnRequest, core.anna, args);
    expect(await commit(createReturnRequest, p, { userId: core.boris })).toEqual(GONE);
    // Moved, and by now out of its window too: what the customer hears is that it changed.
    expect(
      await commit(createReturnRequest, p, {
        version: p.target.version - 1,
        now: new Date(Date.now() + 90 * DAY),
      }),
    ).toEqual({
      kind: "stale",
      code: "order_changed",
      message: "The order changed after the return was proposed.",
    });
    expect(await listReturnRequestsForOrder("7718")).toEqual([]);
  });

  it("crash recovery finds a return by its action id, as written now", async () => {
    const actionId = randomUUID();
    const done = await commit(
      createReturnRequest,
      await planned(createReturnRequest, core.anna, args),
      {
        actionId,
      },
    );
    if (done.kind !== "done") throw new Error("expected done");
    expect(await createReturnRequest.findEffect(actionId)).toEqual({
      ...done.result,
      createdNow: true,
    });
  });

  it("at the store: records the return and queues the store's, found again by key and by action", async () => {
    const p = await planned(createReturnRequest, core.anna, args);
    const plan = { ...p.plan, store: AT_STORE };
    const actionId = randomUUID();
    const done = await commit(createReturnRequest, p, { plan, actionId });
    expect(done).toEqual({
      kind: "done",
      result: {
        requestId: expect.stringMatching(/^RR-[2-9A-HJ-NP-Z]{8}$/),
        orderId: "7718",
        status: "created",
        createdNow: true,
        reason: "damaged",
        comment: null,
        refund: p.plan.refund,
        createdAt: expect.any(String),
      },
      effects: [
        {
          kind: "store.create_return",
          payload: {
            backend: "medusa",
            storeOrderRef: "order_01STORE",
            orderId: "7718",
            expectedUpdatedAt: AT_STORE.updatedAt,
            // The plan's lines and units: the store returns those and nothing else.
            items: (p.plan.lines as { lineId: string; quantity: number }[]).map((l) => ({
              lineId: l.lineId,
              quantity: l.quantity,
            })),
          },
        },
      ],
    });
    if (done.kind !== "done") throw new Error("expected done");
    expect(await getStoreOperationByOperationId({ operationId: actionId })).toMatchObject({
      kind: "return",
    });
    const ctx = { userId: core.anna, chatId: "c", now: new Date() };
    expect(await createReturnRequest.findExisting(args, ctx)).toEqual({
      ...done.result,
      createdNow: false,
    });
    expect(await createReturnRequest.findExisting(args, { ...ctx, userId: core.boris })).toBeNull();
    expect(await createReturnRequest.findEffect(actionId)).toEqual(done.result);
    expect(await createReturnRequest.findEffect(randomUUID())).toBeNull();
  });
});

describe("change_delivery_address", () => {
  const to = {
    name: "Anna Petrova",
    line1: "Torstraße 1",
    line2: null,
    postalCode: "10119",
    city: "Berlin",
    country: "DE",
  };
  const args = { orderId: "3004", address: to };
  const from = {
    name: "Anna Petrova",
    line1: "Hauptstraße 12",
    line2: null,
    postalCode: "10115",
    city: "Berlin",
    country: "DE",
  };

  it("a new address without a name, for an order with no recipient on record: refused, saying why", async () => {
    await core.db.update(orders).set({ deliveryName: null }).where(eq(orders.id, "3004"));
    expect(
      await refusedWith(
        planned(changeDeliveryAddress, core.anna, { ...args, address: { ...to, name: null } }),
      ),
    ).toEqual({
      code: "recipient_missing",
      message: "Order 3004 has no recipient on record: the new address needs the recipient's name.",
    });
  });

  it("plans one request to the warehouse only when a webhook is configured", async () => {
    const action = await proposeWith(
      "change_delivery_address",
      core.anna,
      await newChat(core.db, core.anna),
      args,
    );
    expect(action.plan).toMatchObject({ externalRequests: 0 });
    expect(await actionRow(core.db, action.id)).toMatchObject({
      targetType: "order",
      targetId: "3004",
    });
    process.env.WAREHOUSE_WEBHOOK_URL = "http://127.0.0.1:9/hook";
    process.env.WAREHOUSE_WEBHOOK_SECRET = `whsec_${Buffer.from("a warehouse secret of 32 bytes!!").toString("base64")}`;
    resetEnv();
    try {
      expect((await planned(changeDeliveryAddress, core.anna, args)).plan).toMatchObject({
        externalRequests: 1,
      });
    } finally {
      delete process.env.WAREHOUSE_WEBHOOK_URL;
      delete process.env.WAREHOUSE_WEBHOOK_SECRET;
      resetEnv();
    }
  });

  it("an order that is no longer the customer's: stale, nothing written", async () => {
    const p = await planned(changeDeliveryAddress, core.anna, args);
    expect(await commit(changeDeliveryAddress, p, { userId: core.boris })).toEqual(GONE);
  });

  it("the result names the old address and the new; crash recovery finds it by action id", async () => {
    const actionId = randomUUID();
    const done = await commit(
      changeDeliveryAddress,
      await planned(changeDeliveryAddress, core.anna, args),
      {
        actionId,
      },
    );
    expect(done).toMatchObject({
      kind: "done",
      result: { createdNow: true, from, to },
      effects: [],
    });
    if (done.kind !== "done") throw new Error("expected done");
    expect(await changeDeliveryAddress.findEffect(actionId)).toEqual(done.result);
    expect(await changeDeliveryAddress.findEffect(randomUUID())).toBeNull();
  });

  it("a change this action already wrote is the answer: createdNow false", async () => {
    const p = await planned(changeDeliveryAddress, core.anna, args);
    const actionId = randomUUID();
    await insertAddressChangeIfAbsent({
      id: "AC-EARLIER",
      orderId: "3004",
      userId: core.anna,
      fromAddress: from,
      toAddress: to,
      actionId,
      operationId: actionId,
      createdAt: new Date(),
    });
    expect(await commit(changeDeliveryAddress, p, { actionId })).toEqual({
      kind: "done",
      result: expect.objectContaining({ changeId: "AC-EARLIER", createdNow: false }),
    });
  });

  it("at the store: records the change (no money) and queues the store's write with the new address", async () => {
    const p = await planned(changeDeliveryAddress, core.anna, args);
    const actionId = randomUUID();
    const done = await commit(changeDeliveryAddress, p, {
      plan: { ...p.plan, store: AT_STORE },
      actionId,
    });
    expect(done).toEqual({
      kind: "done",
      result: {
        changeId: expect.stringMatching(/^AC-[2-9A-HJ-NP-Z]{8}$/),
        orderId: "3004",
        createdNow: true,
        from,
        to,
        changedAt: expect.any(String),
      },
      effects: [
        {
          kind: "store.change_address",
          payload: {
            backend: "medusa",
            storeOrderRef: "order_01STORE",
            orderId: "3004",
            expectedUpdatedAt: AT_STORE.updatedAt,
            to,
          },
        },
      ],
    });
    if (done.kind !== "done") throw new Error("expected done");
    expect(await getStoreOperationByOperationId({ operationId: actionId })).toMatchObject({
      kind: "address",
      refundAmountMinor: 0,
      refundCurrency: "XXX",
      refundDestination: "",
      toAddress: to,
    });
    // Crash recovery: the old address is not kept with the operation.
    expect(await changeDeliveryAddress.findEffect(actionId)).toEqual({
      ...done.result,
      from: null,
    });
    expect((await orderRow(core.db, "3004")).deliveryLine1).toBe("Hauptstraße 12");
  });

  it("crash recovery does not take another kind of store operation for an address change", async () => {
    const operationId = randomUUID();
    await insertStoreOperationIfAbsent({
      id: "CN-ATSTORE",
      businessKey: `medusa:order_01STORE:cancel`,
      backend: "medusa",
      kind: "cancel",
      storeOrderRef: "order_01STORE",
      orderId: "3004",
      userId: core.anna,
      reason: "changed_mind",
      comment: null,
      refundAmountMinor: 4500,
      refundCurrency: "EUR",
      refundDestination: "Visa •••• 4242",
      actionId: operationId,
      operationId,
      createdAt: new Date(),
    });
    expect(await changeDeliveryAddress.findEffect(operationId)).toBeNull();
    expect(await getAddressChangeByOperationId({ operationId })).toBeNull();
  });
});

describe("writing an effect once", () => {
  const row = (actionId: string) => ({
    id: `CN-${actionId.slice(0, 8)}`,
    orderId: "3004",
    userId: core.anna,
    reason: "changed_mind" as const,
    comment: null,
    refundAmountMinor: 4500,
    refundCurrency: "EUR",
    refundDestination: "Visa •••• 4242",
    actionId,
    operationId: actionId,
    createdAt: new Date(),
  });

  it("a target that moved after the check takes the inserted effect back: stale with the tool's words", async () => {
    const outcome = await writeEffectOnce({
      insert: () => insertCancellationIfAbsent(row(randomUUID())),
      winner: async () => null,
      compareAndSet: async () => false,
      toResult: (c, createdNow) => ({ id: c.id, createdNow }),
      moved: { code: "order_changed", message: "The order moved." },
    });
    expect(outcome).toEqual({ kind: "stale", code: "order_changed", message: "The order moved." });
    expect(await listCancellationsForOrder("3004")).toEqual([]);
  });

  it("a taken business key without a row to show is an error, not an answer", async () => {
    await expect(
      writeEffectOnce({
        insert: async () => null,
        winner: async () => null,
        compareAndSet: async () => true,
        toResult: (c: { id: string }, createdNow) => ({ id: c.id, createdNow }),
        moved: { code: "order_changed", message: "The order moved." },
      }),
    ).rejects.toThrow("business key conflict without a row");
  });
});

describe("get_order_status's delivery estimate", () => {
  const ctx = () => ({ userId: core.anna, chatId: "c", now: new Date() });

  it("only while the order is on its way: not once cancelled, nor once delivered", async () => {
    expect(await getOrderStatus.execute({ orderId: "3004" }, ctx())).toMatchObject({
      status: "processing",
      estimatedDeliveryAt: expect.any(String),
    });
    await commit(
      cancelOrder,
      await planned(cancelOrder, core.anna, {
        orderId: "3004",
        reason: "changed_mind",
        comment: null,
      }),
    );
    expect(await getOrderStatus.execute({ orderId: "3004" }, ctx())).toMatchObject({
      status: "cancelled",
      estimatedDeliveryAt: null,
    });
    // A delivered order whose old estimate is still on record.
    await core.db
      .update(orders)
      .set({ etaAt: new Date(Date.now() + 2 * DAY) })
      .where(eq(orders.id, "7718"));
    expect(await getOrderStatus.execute({ orderId: "7718" }, ctx())).toMatchObject({
      status: "delivered",
      estimatedDeliveryAt: null,
    });
  });
});

describe("when the store does not answer", () => {
  let server: Server;
  let answer = 503;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "unavailable" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    for (const k of ["STORE_BACKEND", "MEDUSA_URL", "MEDUSA_API_KEY"]) delete process.env[k];
    resetEnv();
    await new Promise((resolve) => server.close(resolve));
  });

  async function atStore() {
    core = await setupCore({
      STORE_BACKEND: "medusa",
      MEDUSA_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      MEDUSA_API_KEY: "sk_test_medusa_key",
    });
    await setStoreCustomerId({ email: "anna@example.com", storeCustomerId: "cus_ANNA" });
  }

  it("the tools say the store cannot be reached, never a status", async () => {
    answer = 503;
    await atStore();
    const expected = {
      code: "store_unreachable",
      message:
        "The store cannot be reached right now (http_503), so order 1007 could not be checked. Tell the customer to try again in a few minutes; never guess its status.",
    };
    expect(
      await refusedWith(
        Promise.resolve().then(() =>
          getOrderStatus.execute(
            { orderId: "1007" },
            { userId: core.anna, chatId: "c", now: new Date() },
          ),
        ),
      ),
    ).toEqual(expected);
    expect(
      await refusedWith(
        planned(cancelOrder, core.anna, { orderId: "1007", reason: "changed_mind", comment: null }),
      ),
    ).toEqual(expected);
  });

  it("a store that refuses us (not a passing outage) is a technical error, not store_unreachable", async () => {
    answer = 401;
    await atStore();
    const err = await Promise.resolve()
      .then(() =>
        getOrderStatus.execute(
          { orderId: "1007" },
          { userId: core.anna, chatId: "c", now: new Date() },
        ),
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ToolBusinessError);
  });
});
