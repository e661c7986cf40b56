/**
 * change_delivery_address: the policy at the model boundary (the real executor), the plan's old
 * and new address, one Confirm that changes the order on its version, and the warehouse told by
 * a Standard Webhooks-signed webhook through the effects outbox and the relay: received by a
 * loopback server that verifies each signature with `standardwebhooks`, one webhook-id per change
 * on every retry, a failed delivery retried like any effect, and no webhook (but the change) when
 * WAREHOUSE_WEBHOOK_URL is unset. Real database (SQLite, and PostgreSQL in the postgres project).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as retryRoute } from "@/app/api/staff/effects/[id]/retry/route";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { auditEvents, deliveryAddressChanges } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { call as callRoute, signIn } from "../helpers/http";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { type Core, newChat, orderRow, proposeWith, setupCore } from "./action-core/fixtures";

const RELAY_ENV = {
  STRIPE_TIMEOUT_MS: "1000",
  EFFECTS_LEASE_SECONDS: "5",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
};

const HOME = {
  name: "Anna Petrova",
  line1: "Hauptstraße 12",
  line2: null,
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
};
const address = (over: Record<string, unknown> = {}) => ({
  name: "Anna Petrova",
  line1: "Torstraße 1",
  line2: "3. OG",
  postalCode: "10119",
  city: "Berlin",
  country: "DE",
  ...over,
});

let core: Core;
let warehouse: WebhookReceiver;

function useWebhook(on: boolean) {
  for (const [k, v] of Object.entries(RELAY_ENV)) process.env[k] = v;
  if (on) {
    process.env.WAREHOUSE_WEBHOOK_URL = warehouse.url;
    process.env.WAREHOUSE_WEBHOOK_SECRET = warehouse.secret;
  } else {
    delete process.env.WAREHOUSE_WEBHOOK_URL;
    delete process.env.WAREHOUSE_WEBHOOK_SECRET;
  }
  resetEnv();
}

beforeAll(async () => {
  warehouse = await startWebhookReceiver();
  core = await setupCore(RELAY_ENV);
});

afterAll(async () => {
  await stopRelay();
  await warehouse?.close();
  for (const k of ["WAREHOUSE_WEBHOOK_URL", "WAREHOUSE_WEBHOOK_SECRET", ...Object.keys(RELAY_ENV)])
    delete process.env[k];
  resetEnv();
});

const call = async (userId: string, args: unknown) =>
  executeToolCall("change_delivery_address", args, {
    userId,
    chatId: await newChat(core.db, userId),
    promptVersion: "test-prompt-1",
    model: "test-model",
  });

async function effectsOf(actionId: string): Promise<EffectRow[]> {
  return await listEffectsForAction({ actionId });
}

async function settle(actionId: string): Promise<EffectRow> {
  for (let i = 0; i < 200; i++) {
    const [effect] = await effectsOf(actionId);
    if (!effect) throw new Error("no effect");
    if (["succeeded", "failed", "needs_attention"].includes(effect.status)) return effect;
    const wait = effect.nextAttemptAt.getTime() - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await runDueEffects();
  }
  throw new Error("never settled");
}

describe("the policy, at the model boundary", () => {
  // Each row: what the model sends, the refusal the executor answers with (nothing proposed), and
  // what its message must name for the model to explain it to the customer.
  const REFUSED: [string, () => string, unknown, string, RegExp?][] = [
    [
      "another customer's order",
      () => core.anna,
      { orderId: "1187", address: address() },
      "order_not_found",
      /^No order 1187 was found for this customer\./,
    ],
    [
      "an unknown order",
      () => core.anna,
      { orderId: "0001", address: address() },
      "order_not_found",
      /^No order 0001 was found/,
    ],
    [
      "an order that has shipped",
      () => core.anna,
      { orderId: "8041", address: address() },
      "already_shipped",
      /^Order 8041 has already shipped \(status: \w+\), so its delivery address can no/,
    ],
    [
      "a delivered order",
      () => core.anna,
      { orderId: "7718", address: address() },
      "already_delivered",
      /^Order 7718 has already been delivered, so its address can no longer be changed\./,
    ],
    [
      "a cancelled order",
      () => core.anna,
      { orderId: "6390", address: address() },
      "order_cancelled",
      /^Order 6390 is cancelled\./,
    ],
    [
      "a country we do not ship to",
      () => core.anna,
      { orderId: "3004", address: address({ country: "US", postalCode: "10001" }) },
      "country_not_shipped",
      /^We do not ship to US\. Shipping countries: DE, AT, /,
    ],
    [
      "a postal code of another country",
      () => core.anna,
      { orderId: "3004", address: address({ postalCode: "1010" }) },
      "invalid_postal_code",
      /^1010 is not a postal code of DE\./,
    ],
    [
      "the address it already has",
      () => core.anna,
      { orderId: "3004", address: { ...HOME, line1: " Hauptstraße   12 " } },
      "address_unchanged",
      /^Order 3004 is already going to that address\./,
    ],
    [
      // Controls, bidi and zero-width characters are removed (free-text.test.ts); what is left
      // of this street is nothing.
      "a street of control, bidi and zero-width characters only",
      () => core.anna,
      { orderId: "3004", address: address({ line1: "\u0007\u202E\u200B\uFEFF" }) },
      "invalid_arguments",
    ],
    [
      "an extra key",
      () => core.anna,
      { orderId: "3004", address: address(), status: "shipped" },
      "invalid_arguments",
    ],
    [
      "an extra key in the address",
      () => core.anna,
      { orderId: "3004", address: address({ userId: "x" }) },
      "invalid_arguments",
    ],
    ["no address", () => core.anna, { orderId: "3004" }, "invalid_arguments"],
    [
      "a country name instead of its code",
      () => core.anna,
      { orderId: "3004", address: address({ country: "Germany" }) },
      "invalid_arguments",
    ],
    [
      "a 2000-character name",
      () => core.anna,
      { orderId: "3004", address: address({ name: "A".repeat(2000) }) },
      "invalid_arguments",
    ],
  ];
  it.each(REFUSED)("%s: refused, nothing proposed", async (_name, who, args, code, says) => {
    const outcome = await call(who(), args);
    expect(outcome).toMatchObject({ kind: "error", code });
    if (says) expect((outcome as { message: string }).message).toMatch(says);
    const rows = await core.db.select().from(deliveryAddressChanges);
    expect(rows).toEqual([]);
  });

  it("a NUL from the model is stripped before the schema sees it, as in every tool", async () => {
    const outcome = await call(core.anna, {
      orderId: "3004",
      address: address({ line1: "Torstraße\u0000 1" }),
    });
    expect(outcome.kind).toBe("proposal");
    if (outcome.kind === "proposal")
      expect((outcome.action.plan as { to: { line1: string } }).to.line1).toBe("Torstraße 1");
  });

  it("the plan shows the old and the new address side by side, normalised", async () => {
    useWebhook(false);
    const outcome = await call(core.anna, {
      orderId: "3004",
      address: address({ line1: "  Torstraße\n 1 ", country: "de", postalCode: "10119" }),
    });
    expect(outcome.kind).toBe("proposal");
    if (outcome.kind !== "proposal") return;
    expect(outcome.action.plan).toEqual({
      effect: "change_delivery_address",
      order: { id: "3004", status: "processing", placedAt: expect.any(String) },
      from: HOME,
      to: address(),
      eligible: true,
      externalRequests: 0,
    });
  });
});

describe("a new address without the recipient's name", () => {
  /** A copy of Anna's processing order 3004 under a new id, with this recipient on record. */
  async function copyOf3004(id: string, deliveryName: string | null) {
    const { orders } = await import("@/db/schema");
    const base = await orderRow(core.db, "3004");
    await core.db.insert(orders).values({ ...base, id, deliveryName, version: 1 });
    return id;
  }

  it("keeps the order's recipient: the plan (the card) shows it, and Confirm writes it", async () => {
    useWebhook(false);
    const orderId = await copyOf3004("7098", HOME.name);
    const outcome = await call(core.anna, { orderId, address: address({ name: null }) });
    expect(outcome.kind).toBe("proposal");
    if (outcome.kind !== "proposal") return;
    // The stored arguments keep what the customer said; the plan says who will receive it.
    expect((outcome.action.arguments as { address: { name: unknown } }).address.name).toBeNull();
    expect((outcome.action.plan as { to: unknown }).to).toEqual(address({ name: HOME.name }));
    const done = await confirmAction({ actionId: outcome.action.id, userId: core.anna });
    expect(done.action.status).toBe("executed");
    expect(await orderRow(core.db, orderId)).toMatchObject({
      deliveryName: HOME.name,
      deliveryLine1: "Torstraße 1",
    });
  });

  it("an order with no recipient on record needs one: refused, nothing proposed", async () => {
    const orderId = await copyOf3004("7099", null);
    const outcome = await call(core.anna, { orderId, address: address({ name: null }) });
    expect(outcome).toMatchObject({ kind: "error", code: "recipient_missing" });
  });
});

describe("Confirm and the warehouse's webhook", () => {
  let nextOrder = 7100;
  /** A fresh processing order of Anna's at her home address (a copy of 3004's row). */
  async function processingOrder(): Promise<string> {
    const base = await orderRow(core.db, "3004");
    const id = String(nextOrder++);
    await core.db.insert((await import("@/db/schema")).orders).values({
      ...base,
      id,
      status: "processing",
      deliveryName: HOME.name,
      deliveryLine1: HOME.line1,
      deliveryLine2: HOME.line2,
      deliveryPostalCode: HOME.postalCode,
      deliveryCity: HOME.city,
      deliveryCountry: HOME.country,
      version: 1,
    });
    return id;
  }
  async function confirmed(orderId: string) {
    const action = await proposeWith(
      "change_delivery_address",
      core.anna,
      await newChat(core.db, core.anna),
      { orderId, address: address() },
    );
    const done = await confirmAction({ actionId: action.id, userId: core.anna });
    expect(done.action.status).toBe("executed");
    return { action, result: done.result as { changeId: string; createdNow: boolean } };
  }

  it("changes the order on its version, and the relay delivers one signed webhook", async () => {
    useWebhook(true);
    const orderId = await processingOrder();
    const { action, result } = await confirmed(orderId);
    expect(result.createdNow).toBe(true);
    expect(await orderRow(core.db, orderId)).toMatchObject({
      version: 2,
      deliveryLine1: "Torstraße 1",
      deliveryLine2: "3. OG",
      deliveryPostalCode: "10119",
    });
    const [stored] = await effectsOf(action.id);
    expect(stored).toMatchObject({ kind: "warehouse.address_changed", status: "pending" });

    const effect = await settle(action.id);
    expect(effect).toMatchObject({ status: "succeeded", providerRef: `msg_${result.changeId}` });
    const mine = warehouse.deliveries.filter((d) => d.id === `msg_${result.changeId}`);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.verified).toEqual({
      type: "warehouse.address_changed",
      timestamp: expect.any(String),
      data: { orderId, changeId: result.changeId, from: HOME, to: address() },
    });
  });

  it("a failing warehouse: retried like any effect, every retry with the same webhook-id, each signed", async () => {
    useWebhook(true);
    const orderId = await processingOrder();
    warehouse.answer(503, 500, 429);
    const { action, result } = await confirmed(orderId);
    const effect = await settle(action.id);
    expect(effect).toMatchObject({ status: "succeeded", attempts: 4 });
    const mine = warehouse.deliveries.filter((d) => d.id === `msg_${result.changeId}`);
    expect(mine.map((d) => d.status)).toEqual([503, 500, 429, 200]);
    expect(mine.every((d) => d.verified !== null)).toBe(true);
    // The outcome of each attempt is in the action's audit trail.
    const audit = await core.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actionId, action.id));
    expect(audit.filter((e) => e.tool === "effect:warehouse.address_changed")).toHaveLength(4);
  });

  it("a warehouse that refuses (400): failed for good, not retried; the address is still changed", async () => {
    useWebhook(true);
    const orderId = await processingOrder();
    warehouse.answer(400);
    const { action, result } = await confirmed(orderId);
    const effect = await settle(action.id);
    expect(effect).toMatchObject({ status: "failed", attempts: 1, lastErrorCode: "http_400" });
    expect(warehouse.deliveries.filter((d) => d.id === `msg_${result.changeId}`)).toHaveLength(1);
    expect((await orderRow(core.db, orderId)).deliveryLine1).toBe("Torstraße 1");
  });

  it("ten racing staff retries of a failing webhook send it back once; a retry of a failure the relay has since repeated is 409", async () => {
    useWebhook(true);
    const orderId = await processingOrder();
    warehouse.answer(400, 400, 400);
    const { action, result } = await confirmed(orderId);
    const failed = await settle(action.id);
    expect(failed.status).toBe("failed");
    const delivered = () =>
      warehouse.deliveries.filter((d) => d.id === `msg_${result.changeId}`).length;
    expect(delivered()).toBe(1);
    const staff = await signIn("staff@example.com");
    const retry = (updatedAt: Date) =>
      callRoute(
        retryRoute,
        `/api/staff/effects/${failed.id}/retry`,
        { id: failed.id },
        { cookie: staff, body: { updatedAt: updatedAt.toISOString() } },
      );
    const answers = await Promise.all(Array.from({ length: 10 }, () => retry(failed.updatedAt)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const again = await settle(action.id);
    expect(again.status).toBe("failed");
    expect(delivered()).toBe(2);
    // An eleventh click from the same page, after the relay failed it once more: the failure it
    // was meant for has been retried already.
    const late = await retry(failed.updatedAt);
    expect(late.status).toBe(409);
    expect((await late.json()).error.code).toBe("conflict");
    expect(await runDueEffects()).toBe(0);
    expect(delivered()).toBe(2);
    expect((await retry(again.updatedAt)).status).toBe(200);
    await settle(action.id);
    expect(delivered()).toBe(3);
  });

  it("without WAREHOUSE_WEBHOOK_URL: no webhook, no effect, and the change is made", async () => {
    useWebhook(false);
    const orderId = await processingOrder();
    const before = warehouse.deliveries.length;
    const { action } = await confirmed(orderId);
    expect(await effectsOf(action.id)).toEqual([]);
    expect(await runDueEffects()).toBe(0);
    expect(warehouse.deliveries.length).toBe(before);
    expect((await orderRow(core.db, orderId)).deliveryPostalCode).toBe("10119");
  });

  it("the order changed but is still processing: its version moved, so the Confirm is stale", async () => {
    useWebhook(false);
    const orderId = await processingOrder();
    const action = await proposeWith(
      "change_delivery_address",
      core.anna,
      await newChat(core.db, core.anna),
      { orderId, address: address() },
    );
    // Any other change to the order (here: a corrected delivery date) moves its version only.
    await core.db
      .update((await import("@/db/schema")).orders)
      .set({ version: 2, etaAt: new Date() })
      .where(eq((await import("@/db/schema")).orders.id, orderId));
    await expect(confirmAction({ actionId: action.id, userId: core.anna })).rejects.toMatchObject({
      code: "stale",
    });
    expect(await orderRow(core.db, orderId)).toMatchObject({
      version: 2,
      deliveryLine1: "Hauptstraße 12",
    });
  });

  it("asking again for the address the latest change set answers that change, proposing nothing; once the order moved on, it is a new proposal", async () => {
    useWebhook(false);
    const orderId = await processingOrder();
    const { result } = await confirmed(orderId);
    const chat = await newChat(core.db, core.anna);
    const again = await executeToolCall(
      "change_delivery_address",
      { orderId, address: address() },
      { userId: core.anna, chatId: chat, promptVersion: "test-prompt-1", model: "test-model" },
    );
    expect(again).toMatchObject({
      kind: "existing",
      tool: "change_delivery_address",
      data: { changeId: result.changeId, createdNow: false },
    });
    // Another customer asking for Anna's order learns nothing of her change.
    const boris = await executeToolCall(
      "change_delivery_address",
      { orderId, address: address() },
      {
        userId: core.boris,
        chatId: await newChat(core.db, core.boris),
        promptVersion: "test-prompt-1",
        model: "test-model",
      },
    );
    expect(boris.kind).not.toBe("existing");
    // The order's address changed since (by staff, say): the same request is a change again.
    await core.db
      .update((await import("@/db/schema")).orders)
      .set({
        deliveryLine1: HOME.line1,
        deliveryLine2: HOME.line2,
        deliveryPostalCode: HOME.postalCode,
      })
      .where(eq((await import("@/db/schema")).orders.id, orderId));
    const fresh = await executeToolCall(
      "change_delivery_address",
      { orderId, address: address() },
      { userId: core.anna, chatId: chat, promptVersion: "test-prompt-1", model: "test-model" },
    );
    expect(fresh.kind).toBe("proposal");
  });

  it("one change per action: a second Confirm changes nothing and sends nothing", async () => {
    useWebhook(true);
    const orderId = await processingOrder();
    const { action } = await confirmed(orderId);
    await expect(confirmAction({ actionId: action.id, userId: core.anna })).rejects.toThrow();
    const rows = await core.db
      .select()
      .from(deliveryAddressChanges)
      .where(eq(deliveryAddressChanges.orderId, orderId));
    expect(rows).toHaveLength(1);
    expect(await effectsOf(action.id)).toHaveLength(1);
    expect((await orderRow(core.db, orderId)).version).toBe(2);
    await settle(action.id);
  });
});
