/**
 * Returns of the lines a customer names, at a REAL Medusa server (the demo store's catalogue:
 * scripts/store-medusa.mjs): the order's lines read with their sizes and final sale, a return of
 * one line requested there as that line's return item with our operation id, and the refund after
 * the receipt that line's amount, not the whole captured payment. The faults of the cancel suite
 * for that return: a lost answer, our process killed after Medusa applied the write, and the
 * order changed at the store between the plan and the confirm. Real SQLite, executor, confirm
 * and relay; nothing of Medusa is faked.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectRow } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { registerReplanner } from "@/lib/chat/replan";
import { getChatView } from "@/lib/chat/service";
import { runDueEffects } from "@/lib/effects/relay";
import { setReplanner } from "@/lib/effects/replan";
import { markReturnReceived } from "@/lib/returns/receive";
import { EXCHANGE_METADATA_KEY, RETURN_METADATA_KEY, refundNote } from "@/lib/store/medusa";
import { workerEnv } from "../helpers/db";
import { auditFor, newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  admin,
  adminOrder,
  adminRefunds,
  adminReturns,
  effectOf,
  medusaStore,
  ordersOf,
  relayPass,
  storeSuite,
  touchAtStore,
} from "./harness";

const _medusa = medusaStore();
const ANNA = "anna@example.com";
const script = path.resolve(import.meta.dirname, "../../scripts/store-medusa.mjs");
// The kill test's held answers must not time out before every write reached Medusa; the lease
// outlasts an attempt (lib/env.ts checks it) and is lapsed by the test, not waited for.
const ENV = {
  EFFECTS_LEASE_SECONDS: "70",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "10",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "6000",
  STRIPE_TIMEOUT_MS: "1000",
  APPROVAL_THRESHOLD_MINOR: "0",
};
const suite = storeSuite(ENV);

beforeAll(() => registerReplanner());
afterAll(() => setReplanner(null));

const ctx = async (userId = suite.core.anna) => ({
  userId,
  chatId: await newChat(suite.core.db, userId),
  promptVersion: "test-prompt-1",
  model: "test-model",
});

async function confirmed(args: Record<string, unknown>, userId = suite.core.anna) {
  const chatId = await newChat(suite.core.db, userId);
  const action = await proposeWith("create_return_request", userId, chatId, args);
  const done = await confirmAction({ actionId: action.id, userId });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, result: done.action.result as Record<string, unknown> };
}

/**
 * An order of the clothes order's four lines, delivered 3 days ago, for a test of its own; or
 * (processing_items) a T-shirt M, not shipped yet. Boris's: the read suites list Anna's orders
 * and expect exactly the seeded ones.
 */
async function freshItemsOrder(state = "delivered_items"): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, "order", "--customer", "boris", "--state", state],
    { timeout: 60_000 },
  );
  return (JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { displayId: string }).displayId;
}

type ReturnItem = { item_id: string; quantity: number; metadata: Record<string, unknown> | null };

/** The return's items at Medusa (its own record, not the proxy's). */
async function returnItems(returnId: string) {
  return (
    await admin<{ return: { items: ReturnItem[] } }>(
      `/admin/returns/${returnId}?fields=items.item_id,items.quantity,items.metadata`,
    )
  ).return.items.map((i) => ({ itemId: i.item_id, quantity: i.quantity, metadata: i.metadata }));
}

/** The order's lines at Medusa by their title. */
async function lineIds(displayId: string) {
  const ref = (await adminOrder(displayId)).id;
  const { order } = await admin<{ order: { items: { id: string; title: string }[] } }>(
    `/admin/orders/${ref}?fields=items.id,items.title`,
  );
  return Object.fromEntries(order.items.map((i) => [i.title, i.id]));
}

/** The order's payments at Medusa: what was captured. */
async function captured(displayId: string) {
  const ref = (await adminOrder(displayId)).id;
  const { order } = await admin<{
    order: { payment_collections: { payments: { amount: number }[] }[] };
  }>(`/admin/orders/${ref}?fields=payment_collections.payments.amount`);
  return order.payment_collections.flatMap((c) => c.payments).reduce((sum, p) => sum + p.amount, 0);
}

type Line = { name: string; quantity: number; unitPrice: number; returned: number };

/** get_order_status's lines by name (the store does not keep the lines in one order). */
function itemsOf(outcome: unknown): Record<string, Line> {
  const items = (outcome as { data: { items: Line[] } }).data.items;
  expect(items).toHaveLength(3);
  return Object.fromEntries(items.map((i) => [i.name, i]));
}

describe("returns of named lines at the store", () => {
  it("one line of the clothes order is returned at Medusa with our id; the refund after the receipt is that line's amount, not the captured payment", async () => {
    const id = ordersOf(ANNA, "delivered_items")[0]!;
    const lines = await lineIds(id);

    // The order reads from the store with its sizes and its final-sale socks.
    const status = await executeToolCall("get_order_status", { orderId: id }, await ctx());
    expect(status).toMatchObject({ data: { total: { amount: 20_200, currency: "EUR" } } });
    expect(itemsOf(status)).toEqual({
      "Merino T-shirt": expect.objectContaining({
        quantity: 2,
        unitPrice: 3500,
        options: { size: "M" },
        finalSale: false,
      }),
      "Trail running shoes": expect.objectContaining({
        quantity: 1,
        unitPrice: 12_000,
        options: { size: "42" },
        finalSale: false,
      }),
      "Hiking socks": expect.objectContaining({
        quantity: 1,
        unitPrice: 1200,
        options: {},
        finalSale: true,
      }),
    });

    // Per line, by our policy on the store's facts: the socks are final sale, three T-shirts
    // are more than were bought. Nothing is stored for either.
    const socks = await executeToolCall(
      "create_return_request",
      { orderId: id, items: [{ line: "socks" }], reason: "other", comment: null },
      await ctx(),
    );
    expect(socks).toMatchObject({ kind: "error", code: "final_sale" });
    const three = await executeToolCall(
      "create_return_request",
      { orderId: id, items: [{ line: "T-shirt", quantity: 3 }], reason: "other", comment: null },
      await ctx(),
    );
    expect(three).toMatchObject({ kind: "error", code: "quantity_above_bought" });

    const args = { orderId: id, items: [{ line: "shoes" }], reason: "defective", comment: null };
    const card = await executeToolCall("create_return_request", args, await ctx());
    expect(card).toMatchObject({
      kind: "proposal",
      action: {
        plan: {
          lines: [{ lineId: lines["Trail running shoes"], quantity: 1, unitPrice: 12_000 }],
          refund: { amount: 12_000 },
        },
      },
    });
    const { actionId, result } = await confirmed(args);
    expect(result).toMatchObject({ orderId: id, createdNow: true, refund: { amount: 12_000 } });
    const ref = (await adminOrder(id)).id;

    // A lost answer to the items' request: the next attempt drops the half-made return and
    // begins again; the final request's answer is lost too and found by the lookup.
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/request-items$/, "lose");
    expect(await relayPass(actionId, "store.create_return")).toMatchObject({
      status: "pending",
      lastErrorCode: "connection_error",
    });
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/request$/, "lose");
    expect(await relayPass(actionId, "store.create_return")).toMatchObject({
      status: "pending",
      lastErrorCode: "connection_error",
    });
    const done = await relayPass(actionId, "store.create_return");
    expect(done.status).toBe("succeeded");
    const atStore = await adminReturns(ref);
    expect(atStore).toEqual([
      expect.objectContaining({ id: done.providerRef, status: "requested" }),
    ]);
    expect(atStore[0]!.metadata[RETURN_METADATA_KEY]).toBe(actionId);
    // Exactly the shoes, once, each item with our operation id.
    expect(await returnItems(done.providerRef!)).toEqual([
      {
        itemId: lines["Trail running shoes"],
        quantity: 1,
        metadata: expect.objectContaining({ [RETURN_METADATA_KEY]: actionId }),
      },
    ]);
    expect(suite.proxy.count(/^POST \/admin\/returns\/[^/]+\/request$/)).toBeGreaterThanOrEqual(1);

    // The store's order now says the shoes are in a return.
    const after = await executeToolCall("get_order_status", { orderId: id }, await ctx());
    expect(Object.values(itemsOf(after)).map((i) => [i.name, i.returned])).toEqual(
      expect.arrayContaining([
        ["Merino T-shirt", 0],
        ["Trail running shoes", 1],
        ["Hiking socks", 0],
      ]),
    );

    // Staff receive the parcel; the refund's answer is lost once and looked up.
    await markReturnReceived({ requestId: String(result.requestId), staffId: suite.core.staff });
    suite.proxy.fault(/^POST \/admin\/payments\/[^/]+\/refund$/, "lose");
    expect(await relayPass(actionId, "store.receive_return")).toMatchObject({
      status: "pending",
      lastErrorCode: "connection_error",
    });
    const refunded = await relayPass(actionId, "store.receive_return");
    expect(refunded.status).toBe("succeeded");
    // The order's payment was all of it (€202.00); the refund is the shoes' €120.00, once.
    expect(await captured(id)).toBe(202);
    expect(adminRefunds(await adminOrder(id))).toEqual([
      expect.objectContaining({
        id: refunded.providerRef,
        amount: 120,
        note: refundNote(actionId),
      }),
    ]);
    expect((await adminReturns(ref))[0]!.status).toBe("received");
  });

  it("an order changed at the store between the plan and the confirm gets no return; the fresh card has the same line", async () => {
    const id = await freshItemsOrder();
    const chatId = await newChat(suite.core.db, suite.core.boris);
    const action = await proposeWith("create_return_request", suite.core.boris, chatId, {
      orderId: id,
      items: [{ line: "T-shirt", quantity: 1 }],
      reason: "other",
      comment: null,
    });
    await touchAtStore(id);
    expect(
      (await confirmAction({ actionId: action.id, userId: suite.core.boris })).action.status,
    ).toBe("executed");
    expect(await relayPass(action.id, "store.create_return")).toMatchObject({
      status: "failed",
      lastErrorCode: "order_changed_at_store",
    });
    expect(await adminReturns((await adminOrder(id)).id)).toHaveLength(0);
    const replanned = await relayPass(action.id, "action.replan");
    expect(replanned.status).toBe("succeeded");
    expect((await getChatView({ chatId, userId: suite.core.boris })).pendingAction).toMatchObject({
      id: replanned.providerRef,
      tool: "create_return_request",
      plan: {
        lines: [{ name: "Merino T-shirt", quantity: 1, unitPrice: 3500 }],
        refund: { amount: 3500 },
      },
    });
  });

  it("SIGKILL after Medusa applied a line's return, another's refund and an exchange, before we recorded them: each found by lookup, one of each", async () => {
    const [returnId, receiptId, exchangeId] = [
      await freshItemsOrder(),
      await freshItemsOrder(),
      await freshItemsOrder(),
    ];
    const tshirt = (orderId: string) => ({
      orderId,
      items: [{ line: "T-shirt", quantity: 1 }],
      reason: "other",
      comment: null,
    });
    // The receipt's return is at Medusa and its parcel has arrived: its refund is due.
    const receipt = await confirmed(tshirt(receiptId), suite.core.boris);
    await runDueEffects();
    expect((await effectOf(receipt.actionId, "store.create_return")).status).toBe("succeeded");
    await markReturnReceived({
      requestId: String(receipt.result.requestId),
      staffId: suite.core.staff,
    });
    const ret = await confirmed(tshirt(returnId), suite.core.boris);
    // The shoes 42 for a 41, the same price: the exchange is the whole write.
    const exchangeChat = await newChat(suite.core.db, suite.core.boris);
    const exchange = await proposeWith("exchange_items", suite.core.boris, exchangeChat, {
      orderId: exchangeId,
      line: "shoes",
      to: "41",
    });
    expect(
      (await confirmAction({ actionId: exchange.id, userId: suite.core.boris })).action.status,
    ).toBe("executed");
    const routes = {
      request: /^POST \/admin\/returns\/[^/]+\/request$/,
      refund: /^POST \/admin\/payments\/[^/]+\/refund$/,
      exchange: /^POST \/admin\/exchanges\/[^/]+\/request$/,
    };
    const before = Object.values(routes).map((r) => suite.proxy.count(r));

    // Medusa applies each; their answers are held; once all three are applied the relay dies.
    let child: ChildProcess | undefined;
    let applied = 0;
    const onApplied = () => {
      applied++;
      if (applied === 3) child?.kill("SIGKILL");
    };
    for (const route of Object.values(routes)) suite.proxy.fault(route, "applied", onApplied);
    child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        path.join(import.meta.dirname, "relay-worker.ts"),
      ],
      {
        cwd: process.cwd(),
        env: { ...process.env, ...workerEnv(suite.core.file), SEED_DEMO: "0" },
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    const signal = await new Promise<NodeJS.Signals | null>((r) =>
      child!.on("exit", (_code, s) => r(s)),
    );
    expect(signal).toBe("SIGKILL");
    expect(applied).toBe(3);

    const writes = [
      [ret.actionId, "store.create_return"],
      [receipt.actionId, "store.receive_return"],
      [exchange.id, "store.exchange_items"],
    ] as const;
    const killed: EffectRow[] = await Promise.all(writes.map(([a, k]) => effectOf(a, k)));
    for (const e of killed) expect(e).toMatchObject({ status: "in_flight" });

    await suite.core.db
      .update(effects)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(
        inArray(
          effects.id,
          killed.map((e) => e.id),
        ),
      );
    await runDueEffects();
    for (const [actionId, kind] of writes) {
      expect(await effectOf(actionId, kind)).toMatchObject({ status: "succeeded" });
      const outcomes = (await auditFor(suite.core.db, actionId))
        .filter((e) => e.tool === `effect:${kind}`)
        .map((e) => (e.result as { outcome?: string } | null)?.outcome);
      expect(outcomes.at(-1)).toBe("reconciled");
    }
    // One of each reached Medusa; the return is the one T-shirt, the refund that T-shirt's €35.
    expect(Object.values(routes).map((r, i) => suite.proxy.count(r) - before[i]!)).toEqual([
      1, 1, 1,
    ]);
    expect(await adminExchanges((await adminOrder(exchangeId)).id)).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ [EXCHANGE_METADATA_KEY]: exchange.id }),
      }),
    ]);
    const returns = await adminReturns((await adminOrder(returnId)).id);
    expect(returns).toHaveLength(1);
    const lines = await lineIds(returnId);
    expect(await returnItems(returns[0]!.id)).toEqual([
      expect.objectContaining({ itemId: lines["Merino T-shirt"], quantity: 1 }),
    ]);
    expect(adminRefunds(await adminOrder(receiptId))).toEqual([
      expect.objectContaining({ amount: 35, note: refundNote(receipt.actionId) }),
    ]);
  });
});

type AdminExchange = {
  id: string;
  metadata: Record<string, unknown> | null;
  return: { status: string } | null;
  additional_items: { quantity: number; item: { variant_id: string } }[];
};

/** The order's exchanges at Medusa that are not cancelled, with their new items. */
async function adminExchanges(orderRef: string) {
  return (
    await admin<{ exchanges: (AdminExchange & { canceled_at: string | null })[] }>(
      `/admin/exchanges?order_id=${orderRef}&fields=id,canceled_at,metadata,return.status,additional_items.quantity,additional_items.item.variant_id`,
    )
  ).exchanges.filter((e) => !e.canceled_at);
}

/** The effect as a relay that lost its record finds it: due again, from its first attempt. */
async function forgetOutcome(effect: EffectRow) {
  await suite.core.db
    .update(effects)
    .set({ status: "pending", settledAt: null, nextAttemptAt: new Date(0), attempts: 0 })
    .where(eq(effects.id, effect.id));
}

describe("exchange_items at the store", () => {
  it("a T-shirt M for an S: one exchange at Medusa with our id (the M back, the S out) and the €5.00 difference refunded there once, after a lost answer", async () => {
    const id = await freshItemsOrder();
    const ref = (await adminOrder(id)).id;

    // Our policy on the store's sizes, prices and stock: L is dearer, shoes 44 has none.
    const dearer = await executeToolCall(
      "exchange_items",
      { orderId: id, line: "T-shirt", quantity: 1, to: "L" },
      await ctx(suite.core.boris),
    );
    expect(dearer).toMatchObject({ kind: "error", code: "dearer_variant" });
    const none = await executeToolCall(
      "exchange_items",
      { orderId: id, line: "shoes", to: "44" },
      await ctx(suite.core.boris),
    );
    expect(none).toMatchObject({ kind: "error", code: "out_of_stock" });

    const args = { orderId: id, line: "T-shirt", quantity: 1, to: "S" };
    // The kill test's exchange went through this proxy too.
    const exchangesBefore = suite.proxy.count(/^POST \/admin\/exchanges$/);
    const chatId = await newChat(suite.core.db, suite.core.boris);
    const action = await proposeWith("exchange_items", suite.core.boris, chatId, args);
    expect(action.plan).toMatchObject({
      kind: "exchange",
      line: { name: "Merino T-shirt", quantity: 1, from: { options: { size: "M" } } },
      to: { options: { size: "S" }, unitPrice: 3000 },
      refund: { amount: 500, currency: "EUR" },
      store: { backend: "medusa", ref },
    });
    const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
    expect(done.action.status).toBe("executed");
    expect(done.action.result).toMatchObject({ kind: "exchange", refund: { amount: 500 } });
    expect(await adminExchanges(ref)).toHaveLength(0);

    // The request's answer is lost: the next attempt finds our exchange requested, sends no
    // second one, and refunds the difference.
    suite.proxy.fault(/^POST \/admin\/exchanges\/[^/]+\/request$/, "lose");
    expect(await relayPass(action.id, "store.exchange_items")).toMatchObject({
      status: "pending",
      lastErrorCode: "connection_error",
    });
    const made = await relayPass(action.id, "store.exchange_items");
    expect(made.status).toBe("succeeded");
    const sVariant = (action.plan as { to: { variantId: string } }).to.variantId;
    const exchanges = await adminExchanges(ref);
    expect(exchanges).toEqual([
      expect.objectContaining({
        id: made.providerRef,
        metadata: expect.objectContaining({ [EXCHANGE_METADATA_KEY]: action.id }),
        return: expect.objectContaining({ status: "requested" }),
        additional_items: [
          expect.objectContaining({
            quantity: 1,
            item: expect.objectContaining({ variant_id: sVariant }),
          }),
        ],
      }),
    ]);
    expect(suite.proxy.count(/^POST \/admin\/exchanges$/) - exchangesBefore).toBe(1);
    expect(adminRefunds(await adminOrder(id))).toEqual([
      expect.objectContaining({ amount: 5, note: refundNote(action.id) }),
    ]);

    // A relay that lost its record starts over: the store shows both, nothing is sent again.
    await forgetOutcome(made);
    expect((await relayPass(action.id, "store.exchange_items")).status).toBe("succeeded");
    expect(adminRefunds(await adminOrder(id))).toHaveLength(1);
    expect(await adminExchanges(ref)).toHaveLength(1);
    expect(suite.proxy.count(/^POST \/admin\/exchanges$/) - exchangesBefore).toBe(1);
  });

  it("an order changed at the store between the plan and the confirm gets no exchange", async () => {
    const id = await freshItemsOrder();
    const chatId = await newChat(suite.core.db, suite.core.boris);
    const action = await proposeWith("exchange_items", suite.core.boris, chatId, {
      orderId: id,
      line: "shoes",
      to: "43",
    });
    expect(action.plan).toMatchObject({ refund: { amount: 0 }, to: { options: { size: "43" } } });
    await touchAtStore(id);
    expect(
      (await confirmAction({ actionId: action.id, userId: suite.core.boris })).action.status,
    ).toBe("executed");
    expect(await relayPass(action.id, "store.exchange_items")).toMatchObject({
      status: "failed",
      lastErrorCode: "order_changed_at_store",
    });
    expect(await adminExchanges((await adminOrder(id)).id)).toHaveLength(0);
  });

  it("before it ships, a T-shirt M for an S is Medusa's order edit: the S line with our id instead of the M, the €5.00 difference refunded once, after a lost answer", async () => {
    const id = await freshItemsOrder("processing_items");
    const ref = (await adminOrder(id)).id;
    const chatId = await newChat(suite.core.db, suite.core.boris);
    const action = await proposeWith("exchange_items", suite.core.boris, chatId, {
      orderId: id,
      to: "smaller",
    });
    expect(action.plan).toMatchObject({
      kind: "swap",
      to: { options: { size: "S" } },
      refund: { amount: 500 },
    });
    expect(
      (await confirmAction({ actionId: action.id, userId: suite.core.boris })).action.status,
    ).toBe("executed");
    const confirm = new RegExp(`^POST /admin/order-edits/${ref}/confirm$`);
    suite.proxy.fault(confirm, "lose");
    expect(await relayPass(action.id, "store.exchange_items")).toMatchObject({
      status: "pending",
      lastErrorCode: "connection_error",
    });
    const made = await relayPass(action.id, "store.exchange_items");
    expect(made.status).toBe("succeeded");
    const sVariant = (action.plan as { to: { variantId: string } }).to.variantId;
    const { order } = await admin<{
      order: {
        items: { variant_id: string; quantity: number; metadata: Record<string, unknown> }[];
      };
    }>(`/admin/orders/${ref}?fields=*items`);
    expect(order.items).toEqual([
      expect.objectContaining({
        variant_id: sVariant,
        quantity: 1,
        metadata: expect.objectContaining({ [EXCHANGE_METADATA_KEY]: action.id }),
      }),
    ]);
    expect(suite.proxy.count(/^POST \/admin\/order-edits$/)).toBe(1);
    expect(suite.proxy.count(confirm)).toBe(1);
    expect(adminRefunds(await adminOrder(id))).toEqual([
      expect.objectContaining({ amount: 5, note: refundNote(action.id) }),
    ]);
    // Asked again, the line is an S already.
    const again = await executeToolCall(
      "exchange_items",
      { orderId: id, to: "S" },
      await ctx(suite.core.boris),
    );
    expect(again).toMatchObject({ kind: "error", code: "same_variant" });
  });
});
