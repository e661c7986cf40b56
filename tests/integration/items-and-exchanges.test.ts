/**
 * Returns of the lines and quantities a customer names, and exchanges for another size, at the
 * built-in store (on SQLite and on PostgreSQL): the policy per line as a table (each row either a
 * card whose lines and refund are the order's own, or a business error and nothing stored), what
 * Confirm writes (the request's lines, the refund of those lines when staff receive the parcel;
 * the exchange, the stock taken, the refund of a cheaper size, the warehouse's webhook), and the
 * last unit of a size raced by three customers from three processes: one exchange, an honest
 * "sold out" for the others, and the stock never below zero.
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db";
import { listEffectsForAction } from "@/db/queries/effects";
import { listExchangesForOrder } from "@/db/queries/item-exchanges";
import { listOrdersForUser } from "@/db/queries/orders";
import { listReturnLines, listReturnRequestsForOrder } from "@/db/queries/return-requests";
import { itemExchanges, orderItems, productVariants, returnRequestLines } from "@/db/schema";
import { seedDemoLikeUser } from "@/db/seed";
import { confirmAction } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { AppError } from "@/lib/errors";
import { markReturnReceived } from "@/lib/returns/receive";
import { workerEnv } from "../helpers/db";
import { release, startWorker } from "../helpers/workers";
import { type Core, newChat, orderRow, proposeWith, setupCore } from "./action-core/fixtures";

const HOOK_SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;

let core: Core;
beforeEach(async () => {
  core = await setupCore({
    WAREHOUSE_WEBHOOK_URL: "http://127.0.0.1:9/warehouse",
    WAREHOUSE_WEBHOOK_SECRET: HOOK_SECRET,
  });
});

const stock = async (variantId: string) =>
  (await getDb().select().from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;

/** What the chat turn gets for a call: a card, or the business error's code. */
async function ask(tool: string, args: Record<string, unknown>, userId = core.anna) {
  const chatId = await newChat(core.db, userId);
  const outcome = await executeToolCall(tool, args, {
    userId,
    chatId,
    promptVersion: "test-prompt-1",
    model: "test-model",
  });
  return outcome;
}

/** Rows any write would leave behind: none may appear for a refusal. */
async function written() {
  const db = getDb();
  return {
    lines: (await db.select().from(returnRequestLines)).length,
    exchanges: (await db.select().from(itemExchanges)).length,
    stock: (await db.select().from(productVariants)).map((v) => `${v.id}:${v.stock}`).join(),
  };
}

type Plan = {
  lines?: { name: string; quantity: number; unitPrice: number }[];
  refund: { amount: number };
};

describe("a return names its lines: the policy per line", () => {
  const cards: [string, Record<string, unknown>, { name: string; quantity: number }[], number][] = [
    [
      "just the shoes",
      { items: [{ line: "shoes" }] },
      [{ name: "Trail running shoes", quantity: 1 }],
      12000,
    ],
    [
      "one of the two T-shirts",
      { items: [{ line: "t-shirt", quantity: 1 }] },
      [{ name: "Merino T-shirt", quantity: 1 }],
      3500,
    ],
    [
      "both T-shirts and the shoes",
      { items: [{ line: "T-shirts", quantity: 2 }, { line: "running shoes" }] },
      [
        { name: "Merino T-shirt", quantity: 2 },
        { name: "Trail running shoes", quantity: 1 },
      ],
      19000,
    ],
    [
      "all of it: every line but the final-sale socks",
      { items: "all" },
      [
        { name: "Merino T-shirt", quantity: 2 },
        { name: "Trail running shoes", quantity: 1 },
      ],
      19000,
    ],
  ];
  it.each(cards)(
    "%s: a card whose refund is those lines at the order's prices",
    async (_, extra, lines, refund) => {
      const outcome = await ask("create_return_request", {
        orderId: "4702",
        reason: "other",
        comment: null,
        ...extra,
      });
      expect(outcome.kind).toBe("proposal");
      if (outcome.kind !== "proposal") return;
      const plan = outcome.action.plan as Plan;
      expect(plan.lines?.map(({ name, quantity }) => ({ name, quantity }))).toEqual(lines);
      expect(plan.refund.amount).toBe(refund);
      expect(plan.refund.amount).toBe(
        plan.lines!.reduce((s, l) => s + l.quantity * l.unitPrice, 0),
      );
    },
  );

  const refusals: [string, string, Record<string, unknown>, string][] = [
    ["the final-sale socks", "4702", { items: [{ line: "socks" }] }, "final_sale"],
    [
      "three of two T-shirts",
      "4702",
      { items: [{ line: "t-shirt", quantity: 3 }] },
      "quantity_above_bought",
    ],
    ["zero", "4702", { items: [{ line: "shoes", quantity: 0 }] }, "invalid_quantity"],
    [
      "a negative quantity",
      "4702",
      { items: [{ line: "shoes", quantity: -1 }] },
      "invalid_quantity",
    ],
    [
      "a fractional quantity",
      "4702",
      { items: [{ line: "t-shirt", quantity: 1.5 }] },
      "invalid_quantity",
    ],
    ["an item of several, unnamed", "4702", { items: [{}] }, "which_items"],
    ["words that fit no line", "4702", { items: [{ line: "hat" }] }, "item_not_in_order"],
    ["a processing order", "4704", { items: [{ line: "t-shirt" }] }, "not_delivered"],
    ["outside the window", "5120", {}, "return_window_passed"],
  ];
  it.each(refusals)(
    "%s: %s refused (%s) in words the assistant explains, nothing stored",
    async (_, orderId, extra, code) => {
      const before = await written();
      const outcome = await ask("create_return_request", {
        orderId,
        reason: "other",
        comment: null,
        ...extra,
      });
      expect(outcome).toMatchObject({ kind: "error", code });
      expect(await written()).toEqual(before);
    },
  );

  it("a line of another order (Boris's, by its id) is not a line of this one", async () => {
    const [boris] = await getDb().select().from(orderItems).where(eq(orderItems.orderId, "4703"));
    const outcome = await ask("create_return_request", {
      orderId: "4702",
      items: [{ line: String(boris!.id) }],
      reason: "other",
      comment: null,
    });
    expect(outcome).toMatchObject({ kind: "error", code: "item_not_in_order" });
  });

  it("a smuggled price or refund amount is refused with the call: the plan computes both", async () => {
    const before = await written();
    for (const smuggled of [
      { items: [{ line: "shoes", unitPrice: 1 }] },
      { items: [{ line: "shoes" }], refund: { amount: 1, currency: "EUR" } },
    ]) {
      const outcome = await ask("create_return_request", {
        orderId: "4702",
        reason: "other",
        comment: null,
        ...smuggled,
      });
      expect(outcome.kind).not.toBe("proposal");
    }
    expect(await written()).toEqual(before);
  });

  it("an order named without items is returned whole, as before (the walk-through's 7718)", async () => {
    const outcome = await ask("create_return_request", {
      orderId: "7718",
      reason: "damaged",
      comment: null,
    });
    expect(outcome.kind === "proposal" && (outcome.action.plan as Plan).refund.amount).toBe(25890);
  });

  it("Confirm stores the lines, and staff's Mark received refunds exactly them", async () => {
    const action = await proposeWith(
      "create_return_request",
      core.anna,
      await newChat(core.db, core.anna),
      {
        orderId: "4702",
        items: [{ line: "t-shirt", quantity: 1 }, { line: "shoes" }],
        reason: "other",
        comment: null,
      },
    );
    const { result } = await confirmAction({ actionId: action.id, userId: core.anna });
    const requestId = (result as unknown as { requestId: string }).requestId;
    const [request] = await listReturnRequestsForOrder("4702");
    expect(request!.refundAmountMinor).toBe(15500);
    expect(
      (await listReturnLines({ requestId })).map(({ name, quantity, unitPriceMinor }) => ({
        name,
        quantity,
        unitPriceMinor,
      })),
    ).toEqual([
      { name: "Merino T-shirt", quantity: 1, unitPriceMinor: 3500 },
      { name: "Trail running shoes", quantity: 1, unitPriceMinor: 12000 },
    ]);
    await markReturnReceived({ requestId, staffId: core.staff });
    const refunds = (await listEffectsForAction({ actionId: action.id })).filter(
      (e) => e.kind === "payment.refund",
    );
    expect(refunds.map((e) => (e.payload as { amount: number }).amount)).toEqual([15500]);
  });
});

describe("what the orders page reads of each line", () => {
  /** Anna's order as the orders page gets it: per line, what was returned and exchanged. */
  const linesOf = async (orderId: string) => {
    const order = (await listOrdersForUser({ userId: core.anna })).find((o) => o.id === orderId)!;
    return {
      received: order.returnRequest?.receivedAt != null,
      lines: order.items.map((i) => ({
        name: i.name,
        returned: i.returnedQuantity,
        exchanges: i.exchanges,
      })),
    };
  };
  const confirmed = async (tool: string, args: Record<string, unknown>) => {
    const action = await proposeWith(tool, core.anna, await newChat(core.db, core.anna), args);
    return (await confirmAction({ actionId: action.id, userId: core.anna })).result as unknown as {
      requestId?: string;
    };
  };

  it("one T-shirt returned and the shoes a size up: each on its own line, from and to sizes", async () => {
    const { requestId } = await confirmed("create_return_request", {
      orderId: "4702",
      items: [{ line: "t-shirt", quantity: 1 }],
      reason: "damaged",
      comment: null,
    });
    await confirmed("exchange_items", { orderId: "4702", line: "shoes", to: "bigger" });
    expect(await linesOf("4702")).toEqual({
      received: false,
      lines: [
        { name: "Merino T-shirt", returned: 1, exchanges: [] },
        {
          name: "Trail running shoes",
          returned: 0,
          exchanges: [{ kind: "exchange", quantity: 1, from: { size: "42" }, to: { size: "43" } }],
        },
        { name: "Hiking socks", returned: 0, exchanges: [] },
      ],
    });
    await markReturnReceived({ requestId: requestId!, staffId: core.staff });
    expect((await linesOf("4702")).received).toBe(true);
  });

  it("a size changed before shipping reads as a swap from M to S", async () => {
    await confirmed("exchange_items", { orderId: "4704", to: "S" });
    expect((await linesOf("4704")).lines[0]!.exchanges).toEqual([
      { kind: "swap", quantity: 1, from: { size: "M" }, to: { size: "S" } },
    ]);
  });
});

describe("exchange_items: another size of the same product", () => {
  const refusals: [string, Record<string, unknown>, string][] = [
    [
      "M to L before it ships is dearer: we never charge",
      { orderId: "4704", to: "L" },
      "dearer_variant",
    ],
    ["a size bigger than M is L: dearer", { orderId: "4704", to: "bigger" }, "dearer_variant"],
    ["shoes to 44: none in stock", { orderId: "4702", line: "shoes", to: "44" }, "out_of_stock"],
    ["shoes to 47: no such size", { orderId: "4702", line: "shoes", to: "47" }, "unknown_variant"],
    [
      "shoes for a T-shirt's variant",
      { orderId: "4702", line: "shoes", to: "merino-tshirt-s" },
      "other_product",
    ],
    ["the final-sale socks", { orderId: "4702", line: "socks", to: "bigger" }, "final_sale"],
    ["the size already bought", { orderId: "4702", line: "t-shirt", to: "M" }, "same_variant"],
    [
      "three of two T-shirts",
      { orderId: "4702", line: "t-shirt", quantity: 3, to: "S" },
      "quantity_above_bought",
    ],
    [
      "half a T-shirt",
      { orderId: "4702", line: "t-shirt", quantity: 0.5, to: "S" },
      "invalid_quantity",
    ],
    ["an item of several, unnamed", { orderId: "4702", to: "S" }, "which_items"],
    ["an order on its way", { orderId: "8041", to: "L" }, "already_shipped"],
    [
      "a line without sizes",
      { orderId: "7718", line: "coffee machine", to: "L" },
      "not_exchangeable",
    ],
    ["outside the window", { orderId: "5120", to: "L" }, "return_window_passed"],
  ];
  it.each(refusals)("%s: refused (%s), nothing stored", async (_, args, code) => {
    const before = await written();
    expect(await ask("exchange_items", args)).toMatchObject({ kind: "error", code });
    expect(await written()).toEqual(before);
  });

  it("M to S before it ships: swapped once, the stock taken, €5.00 back, the warehouse told", async () => {
    const s = await stock("merino-tshirt-s");
    const version = (await orderRow(core.db, "4704")).version;
    const action = await proposeWith(
      "exchange_items",
      core.anna,
      await newChat(core.db, core.anna),
      {
        orderId: "4704",
        to: "S",
      },
    );
    expect(action.plan).toMatchObject({ kind: "swap", refund: { amount: 500 } });
    const { result } = await confirmAction({ actionId: action.id, userId: core.anna });
    expect(result).toMatchObject({
      kind: "swap",
      createdNow: true,
      toVariantId: "merino-tshirt-s",
    });
    expect(await stock("merino-tshirt-s")).toBe(s - 1);
    expect((await orderRow(core.db, "4704")).version).toBe(version + 1);
    const effects = await listEffectsForAction({ actionId: action.id });
    expect(effects.find((e) => e.kind === "payment.refund")?.payload).toMatchObject({
      orderId: "4704",
      amount: 500,
    });
    const hook = effects.find((e) => e.kind === "warehouse.event");
    expect(hook?.payload).toMatchObject({
      type: "warehouse.items_exchanged",
      data: {
        kind: "swap",
        quantity: 1,
        returnExpected: false,
        to: { variantId: "merino-tshirt-s" },
      },
    });
    expect((hook!.payload as { webhookId: string }).webhookId).toBe(
      `msg_${(result as unknown as { exchangeId: string }).exchangeId}`,
    );
    // Asked again: the line is exchanged in full, so the answer is the exchange, not a new card.
    expect(await ask("exchange_items", { orderId: "4704", to: "S" })).toMatchObject({
      kind: "existing",
    });
  });

  it("one of the two T-shirts exchanged leaves one to return, not two", async () => {
    const action = await proposeWith(
      "exchange_items",
      core.anna,
      await newChat(core.db, core.anna),
      {
        orderId: "4702",
        line: "t-shirt",
        quantity: 1,
        to: "smaller",
      },
    );
    await confirmAction({ actionId: action.id, userId: core.anna });
    expect(
      await ask("create_return_request", {
        orderId: "4702",
        items: [{ line: "t-shirt", quantity: 2 }],
        reason: "other",
        comment: null,
      }),
    ).toMatchObject({ kind: "error", code: "quantity_above_remaining" });
  });

  it("two cards for the last unit: the second Confirm hears it sold out, and nothing is stored", async () => {
    const anna = await proposeWith("exchange_items", core.anna, await newChat(core.db, core.anna), {
      orderId: "4702",
      line: "shoes",
      to: "bigger",
    });
    const boris = await proposeWith(
      "exchange_items",
      core.boris,
      await newChat(core.db, core.boris),
      {
        orderId: "4703",
        to: "43",
      },
    );
    await confirmAction({ actionId: anna.id, userId: core.anna });
    const refused = await confirmAction({ actionId: boris.id, userId: core.boris }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toMatchObject({ status: "stale", reason: "sold_out" });
    expect(await listExchangesForOrder("4703")).toEqual([]);
    expect(await stock("trail-shoes-43")).toBe(0);
  });
});

type Line = { actionId: string; ok: boolean; code?: string; reason?: string };

it("three customers race for the last pair in 43 from three processes: one exchange, stock 0", {
  timeout: 120_000,
}, async () => {
  const carla = await seedDemoLikeUser({ like: "anna", email: `carla-${Date.now()}@example.com` });
  const cards = [
    [core.anna, { orderId: "4702", line: "shoes", to: "43" }],
    [core.boris, { orderId: "4703", to: "43" }],
    [carla.userId, { orderId: carla.orderIds["4702"]!, line: "shoes", to: "43" }],
  ] as const;
  const actions: [string, string][] = [];
  for (const [userId, args] of cards) {
    const a = await proposeWith("exchange_items", userId, await newChat(core.db, userId), args);
    actions.push([userId, a.id]);
  }
  await closeDb(); // The workers own the database during the race.
  const { codes, lines } = await release<Line>(
    actions.map(([userId, id]) =>
      startWorker(path.join(import.meta.dirname, "action-core/confirm-worker.ts"), [userId, id], {
        ...process.env,
        ...workerEnv(core.file),
        SEED_DEMO: "0",
      }),
    ),
  );
  core.db = getDb();
  expect(codes.every((c) => c === 0)).toBe(true);
  expect(lines.filter((l) => l.ok)).toHaveLength(1);
  expect(lines.filter((l) => !l.ok)).toEqual(
    Array(2).fill(expect.objectContaining({ code: "stale", reason: "sold_out" })),
  );
  expect(await getDb().select().from(itemExchanges)).toHaveLength(1);
  expect(await stock("trail-shoes-43")).toBe(0);
});
