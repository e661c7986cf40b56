/**
 * STORE_BACKEND=medusa against a REAL Medusa v2 server (started by the global setup with
 * scripts/store-medusa.mjs and its demo store): the reads of get_order_status come from the
 * store, another customer's order is "not found", and a confirmed cancel_order is cancelled at
 * the store by the relay exactly once: a duplicated relay pass and the lookup after a lost answer
 * (a proxy in front of Medusa drops the cancel's answer after Medusa applied it) do not cancel it
 * again. A store that does not answer is `store_unreachable`, and a write waits in the outbox.
 * Real SQLite, real executor, confirm and relay; nothing of Medusa is faked.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getActionById } from "@/db/queries/actions";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { toPendingActionDto } from "@/lib/actions/dto";
import { executeToolCall } from "@/lib/actions/executor";
import { actionDetail } from "@/lib/chat/action-detail";
import { actionDescription, presentAction } from "@/lib/chat/present";
import { registerReplanner } from "@/lib/chat/replan";
import { getChatView } from "@/lib/chat/service";
import { runDueEffects } from "@/lib/effects/relay";
import { setReplanner } from "@/lib/effects/replan";
import { resetEnv } from "@/lib/env";
import { store } from "@/lib/store";
import { OPERATION_METADATA_KEY } from "@/lib/store/medusa";
import { actionRow, auditFor, newChat, proposeWith } from "../integration/action-core/fixtures";
import { effectOf, relayPass as harnessPass, storeSuite } from "./harness";

const medusa = inject("medusa");

const RELAY_ENV = {
  EFFECTS_LEASE_SECONDS: "120",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "10",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "10000",
  // The large order is cancelled in a test of its own, without waiting for staff's approval.
  APPROVAL_THRESHOLD_MINOR: "0",
};

const suite = storeSuite(RELAY_ENV);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Medusa's cancel, as the fault proxy (./harness.ts) sees it. */
const CANCEL = /^POST \/admin\/orders\/[^/]+\/cancel$/;

/** An address where nothing listens: a port that was free a moment ago. */
async function deadUrl(): Promise<string> {
  const dead = http.createServer();
  await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
  const { port } = dead.address() as AddressInfo;
  await new Promise<void>((r) => dead.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

function pointAt(url: string) {
  process.env.MEDUSA_URL = url;
  resetEnv();
}

/** Medusa's own answer, straight from its Admin API (not through the proxy). */
async function medusaOrder(displayId: string) {
  const r = await fetch(
    `${medusa.url}/admin/orders?fields=id,display_id,status,canceled_at,updated_at,version,metadata&limit=100`,
    { headers: { authorization: `Basic ${Buffer.from(`${medusa.apiKey}:`).toString("base64")}` } },
  );
  const { orders } = (await r.json()) as {
    orders: {
      id: string;
      display_id: number;
      status: string;
      canceled_at: string | null;
      updated_at: string;
      version: number;
      metadata: Record<string, unknown> | null;
    }[];
  };
  const o = orders.find((x) => String(x.display_id) === displayId);
  if (!o) throw new Error(`no order ${displayId} at Medusa`);
  return o;
}

const orderOf = (email: string, state: string) => {
  const o = medusa.orders.find((x) => x.customerEmail === email && x.state === state);
  if (!o) throw new Error(`the demo store has no ${state} order of ${email}`);
  return o.displayId;
};
const annaOrders = () => medusa.orders.filter((o) => o.customerEmail === "anna@example.com");

/** The kinds of the action's effects, as our outbox has them now. */
const kindsOf = async (actionId: string) =>
  (await listEffectsForAction({ actionId })).map((e) => e.kind).sort();

async function storeEffect(actionId: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter(
    (e) => e.kind === "store.cancel_order",
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** One relay pass, after the effect's backoff. */
async function relayPass(actionId: string): Promise<EffectRow> {
  const before = await storeEffect(actionId);
  const wait = before.nextAttemptAt.getTime() - Date.now();
  if (wait > 0) await sleep(wait + 1);
  await runDueEffects();
  return storeEffect(actionId);
}

/** The effect as a relay that lost its record finds it: due again, from its first attempt. */
async function forgetOutcome(effect: EffectRow) {
  await suite.core.db
    .update(effects)
    .set({ status: "pending", settledAt: null, nextAttemptAt: new Date(0), attempts: 0 })
    .where(eq(effects.id, effect.id));
}

async function confirmedCancel(userId: string, orderId: string) {
  const chatId = await newChat(suite.core.db, userId);
  const action = await proposeWith("cancel_order", userId, chatId, {
    orderId,
    reason: "changed_mind",
    comment: null,
  });
  const done = await confirmAction({ actionId: action.id, userId });
  expect(done.action.status).toBe("executed");
  return action.id;
}

const status = async (userId: string, orderId: string) =>
  executeToolCall(
    "get_order_status",
    { orderId },
    {
      userId,
      chatId: await newChat(suite.core.db, userId),
      promptVersion: "test-prompt-1",
      model: "test-model",
    },
  );

// The composition root's injection (lib/startup.ts): the relay's fresh plans after a refusal.
beforeAll(() => registerReplanner());

afterAll(() => setReplanner(null));

describe("reads come from the store", () => {
  it("get_order_status answers Anna's order with the store's facts", async () => {
    const id = orderOf("anna@example.com", "processing");
    const out = await status(suite.core.anna, id);
    expect(out.kind).toBe("result");
    const data = (out as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({
      orderId: id,
      status: "processing",
      total: { amount: 12_900, currency: "EUR" },
      items: [{ name: "Trail Running Shoes", quantity: 1, unitPrice: 12_900 }],
      deliveryAddress: { city: "Berlin", country: "DE", postalCode: "10115" },
    });
  });

  it("lists exactly the customer's own orders, newest first, with the cancelled one as cancelled", async () => {
    const listed = await store().listOrders({
      userId: suite.core.anna,
      storeCustomerId: medusa.customers.find((c) => c.email === "anna@example.com")!
        .storeCustomerId,
    });
    expect(listed.map((o) => o.id).sort()).toEqual(
      annaOrders()
        .map((o) => o.displayId)
        .sort(),
    );
    const cancelled = listed.find((o) => o.id === orderOf("anna@example.com", "cancelled"));
    expect(cancelled?.status).toBe("cancelled");
  });

  it("another customer's order, and one that does not exist, are both order_not_found", async () => {
    const boris = orderOf("boris@example.com", "processing");
    for (const id of [boris, "9999"]) {
      const out = await status(suite.core.anna, id);
      expect(out).toMatchObject({ kind: "error", code: "order_not_found" });
    }
    // Boris sees his own.
    expect((await status(suite.core.boris, boris)).kind).toBe("result");
    // And Anna cannot get a card to cancel it either.
    const chatId = await newChat(suite.core.db, suite.core.anna);
    const out = await executeToolCall(
      "cancel_order",
      { orderId: boris, reason: "changed_mind", comment: null },
      { userId: suite.core.anna, chatId, promptVersion: "test-prompt-1", model: "test-model" },
    );
    expect(out).toMatchObject({ kind: "error", code: "order_not_found" });
  });
});

describe("cancel_order at the store, exactly once", () => {
  it("confirm stores the effect; the relay cancels at Medusa with our operation id; a repeated pass sends no second cancel", async () => {
    const id = annaOrders().filter((o) => o.state === "processing")[0]!.displayId;
    const cancelsBefore = suite.proxy.count(CANCEL);
    const actionId = await confirmedCancel(suite.core.anna, id);
    // The confirm did not call the store: the effect waits in the outbox, and so does the mail
    // that says it is cancelled (it rides on the store's effect).
    expect(await storeEffect(actionId)).toMatchObject({
      status: "pending",
      attempts: 0,
      payload: expect.objectContaining({
        confirmationMail: expect.objectContaining({ kind: "mail.cancellation_confirmed" }),
      }),
    });
    expect(await kindsOf(actionId)).toEqual(["store.cancel_order"]);
    expect((await medusaOrder(id)).status).not.toBe("canceled");
    // So neither the card nor the chat says it is cancelled yet, in either language; the card
    // keeps following the write.
    const anna = { id: suite.core.anna, role: "customer" as const };
    const queued = await actionDetail({ actionId, user: anna });
    expect(queued.view.outcome).toMatchObject({ tone: "neutral", settled: false });
    expect(queued.view.outcome?.text).toContain("the store is cancelling it now");
    expect(queued.view.outcome?.text).not.toMatch(/is cancelled|refunded\b/);
    const row = await getActionById({ id: actionId });
    const dto = toPendingActionDto(row!);
    expect(presentAction(dto, "ru", queued.effects).view.outcome?.text).toContain(
      "магазин сейчас его отменяет",
    );
    expect(actionDescription(dto, "en").notes.executed).toContain("on its way to the store");
    expect(actionDescription(dto, "ru").notes.executed).toContain("передаётся в магазин");

    const done = await relayPass(actionId);
    expect(done.status).toBe("succeeded");
    // Applied at the store: now the customer is mailed, with the confirm's mail as composed then.
    expect(await kindsOf(actionId)).toEqual(
      expect.arrayContaining(["mail.cancellation_confirmed", "mail.refund_succeeded"]),
    );
    const applied = await actionDetail({ actionId, user: anna });
    expect(applied.view.outcome).toMatchObject({ tone: "success", settled: true });
    expect(applied.view.outcome?.text).toMatch(new RegExp(`Order ${id} cancelled`));
    const at = await medusaOrder(id);
    expect(at.status).toBe("canceled");
    expect(at.metadata?.[OPERATION_METADATA_KEY]).toBe(actionId);
    expect(done.providerRef).toBe(at.id);
    expect(suite.proxy.count(CANCEL) - cancelsBefore).toBe(1);

    // A second relay that took the effect over (its record lost) sends it again from scratch:
    // the store already shows our cancel, so nothing more is sent.
    await suite.core.db
      .update(effects)
      .set({ status: "pending", settledAt: null, nextAttemptAt: new Date(0), attempts: 0 })
      .where(eq(effects.id, done.id));
    const again = await relayPass(actionId);
    expect(again.status).toBe("succeeded");
    expect(suite.proxy.count(CANCEL) - cancelsBefore).toBe(1);
    const after = await medusaOrder(id);
    expect(after.canceled_at).toBe(at.canceled_at);

    // Asking again is the existing cancellation, not a new card.
    const chatId = await newChat(suite.core.db, suite.core.anna);
    const out = await executeToolCall(
      "cancel_order",
      { orderId: id, reason: "changed_mind", comment: null },
      { userId: suite.core.anna, chatId, promptVersion: "test-prompt-1", model: "test-model" },
    );
    expect(out).toMatchObject({ kind: "existing", data: { createdNow: false } });
    // And the order reads as cancelled, from the store.
    expect(await status(suite.core.anna, id)).toMatchObject({ data: { status: "cancelled" } });
  });

  it("a lost answer (Medusa cancelled, the relay never heard): the next attempt looks it up and sends nothing", async () => {
    const id = annaOrders().filter((o) => o.state === "processing")[1]!.displayId;
    const cancelsBefore = suite.proxy.count(CANCEL);
    const actionId = await confirmedCancel(suite.core.anna, id);
    suite.proxy.fault(CANCEL, "lose");
    const first = await relayPass(actionId);
    expect(first.status).toBe("pending");
    expect(first.lastErrorCode).toBe("connection_error");
    const applied = await medusaOrder(id);
    expect(applied.status).toBe("canceled");
    expect(applied.metadata?.[OPERATION_METADATA_KEY]).toBe(actionId);

    const second = await relayPass(actionId);
    expect(second.status).toBe("succeeded");
    expect(suite.proxy.count(CANCEL) - cancelsBefore).toBe(1);
    expect((await medusaOrder(id)).canceled_at).toBe(applied.canceled_at);
  });

  it("an order that changed at the store after the plan is not cancelled; the customer is told, and a fresh proposal follows in the same chat", async () => {
    const id = orderOf("boris@example.com", "processing");
    const chatId = await newChat(suite.core.db, suite.core.boris);
    const action = await proposeWith("cancel_order", suite.core.boris, chatId, {
      orderId: id,
      reason: "changed_mind",
      comment: null,
    });
    // Someone at the store edits the order between the card and the confirm.
    const ref = (await medusaOrder(id)).id;
    const r = await fetch(`${medusa.url}/admin/orders/${ref}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${medusa.apiKey}:`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ metadata: { packed_by: "warehouse" } }),
    });
    expect(r.ok).toBe(true);
    const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
    expect(done.action.status).toBe("executed");
    const settled = await relayPass(action.id);
    expect(settled).toMatchObject({ status: "failed", lastErrorCode: "order_changed_at_store" });
    expect((await medusaOrder(id)).status).not.toBe("canceled");
    // Nothing was cancelled, so no mail says it was.
    expect(await kindsOf(action.id)).not.toContain("mail.cancellation_confirmed");

    // The attempt's audit says the order's business key was freed.
    const audit = (await auditFor(suite.core.db, action.id)).filter(
      (e) => e.tool === "effect:store.cancel_order",
    );
    expect(audit.map((e) => e.result)).toEqual([
      expect.objectContaining({ outcome: "failed", releasedBusinessKey: true }),
    ]);
    // The customer's card says nothing was done and how to go on, in English and in Russian.
    const detail = await actionDetail({
      actionId: action.id,
      user: { id: suite.core.boris, role: "customer" },
    });
    // Not settled yet: the fresh plan (`action.replan`) is still to come, and the card follows it.
    expect(detail.view.outcome).toMatchObject({
      tone: "warning",
      settled: false,
      text: expect.stringContaining("changed at the store"),
    });
    const ru = presentAction(done.action, "ru", detail.effects);
    expect(ru.view.outcome?.text).toContain("изменился в магазине");

    // The refusal stored the fresh plan with it; the relay's next pass proposes it, made on the
    // order as the store has it now, in the same chat for the same customer.
    const replan = await effectOf(action.id, "action.replan");
    expect(replan).toMatchObject({ status: "pending", payload: { tool: "cancel_order" } });
    expect(audit[0]!.result).toMatchObject({ followUps: ["action.replan"] });
    const replanned = await harnessPass(action.id, "action.replan");
    expect(replanned.status).toBe("succeeded");
    const freshId = replanned.providerRef!;
    const fresh = await actionRow(suite.core.db, freshId);
    const atStore = await medusaOrder(id);
    expect(fresh).toMatchObject({
      status: "pending",
      tool: "cancel_order",
      chatId,
      userId: suite.core.boris,
      arguments: { orderId: id, reason: "changed_mind", comment: null },
      plan: expect.objectContaining({
        store: expect.objectContaining({ updatedAt: atStore.updated_at }),
      }),
    });
    expect(atStore.updated_at).not.toBe(
      (action.plan as { store: { updatedAt: string } }).store.updatedAt,
    );
    // The customer's chat: the app's message with the new card, the open proposal; the old card
    // keeps its own note.
    const view = await getChatView({ chatId, userId: suite.core.boris });
    expect(view.pendingAction?.id).toBe(freshId);
    const note = view.messages.find((m) => m.id === `replan-${action.id}`);
    expect(note?.role).toBe("assistant");
    expect(note?.parts).toEqual([
      { type: "text", text: expect.stringContaining("changed at the store after you confirmed") },
      expect.objectContaining({
        type: "data-pending-action",
        data: expect.objectContaining({ id: freshId, status: "pending" }),
      }),
    ]);
    const oldCard = await actionDetail({
      actionId: action.id,
      user: { id: suite.core.boris, role: "customer" },
    });
    expect(oldCard.view.outcome).toMatchObject({ tone: "warning", settled: true });
    // The audit: the fresh action was proposed by the system, replacing the refused one.
    expect((await auditFor(suite.core.db, freshId)).map((e) => [e.tool, e.status])).toEqual([
      ["cancel_order", "confirmation_required"],
      ["system:replan", "success"],
    ]);
    expect((await auditFor(suite.core.db, freshId))[1]).toMatchObject({
      arguments: { replaces: action.id, cause: "order_changed_at_store", proposedBy: "system" },
    });

    // A relay that lost the replan's outcome looks it up: no second proposal, no second message.
    await forgetOutcome(replanned);
    expect((await harnessPass(action.id, "action.replan")).status).toBe("succeeded");
    const after = await getChatView({ chatId, userId: suite.core.boris });
    expect(after.messages.filter((m) => m.id.startsWith("replan-"))).toHaveLength(1);

    // Boris confirms the fresh proposal: Medusa cancels once, and the store's refund of the
    // captured payment is mailed to him.
    const cancelsBefore = suite.proxy.count(CANCEL);
    expect(
      (await confirmAction({ actionId: freshId, userId: suite.core.boris })).action.status,
    ).toBe("executed");
    expect((await relayPass(freshId)).status).toBe("succeeded");
    expect((await medusaOrder(id)).status).toBe("canceled");
    expect(suite.proxy.count(CANCEL) - cancelsBefore).toBe(1);
    expect(await listEffectsForAction({ actionId: freshId })).not.toContainEqual(
      expect.objectContaining({ kind: "action.replan" }),
    );
    await runDueEffects();
    const mail = (await listEffectsForAction({ actionId: freshId })).find(
      (e) => e.kind === "mail.refund_succeeded",
    );
    expect(mail).toMatchObject({
      status: "succeeded",
      payload: expect.objectContaining({
        to: "boris@example.com",
        orderId: id,
        amount: 4900,
        currency: "EUR",
      }),
    });
  });
});

describe("the store does not answer", () => {
  it("a read is store_unreachable, never a status", async () => {
    pointAt(await deadUrl());
    try {
      const out = await status(suite.core.anna, orderOf("anna@example.com", "large"));
      expect(out).toMatchObject({ kind: "error", code: "store_unreachable" });
    } finally {
      pointAt(suite.proxy.url);
    }
  });

  it("a confirmed cancel waits in the outbox while the store is down, and is cancelled once it is back", async () => {
    const id = orderOf("anna@example.com", "large");
    const cancelsBefore = suite.proxy.count(CANCEL);
    const actionId = await confirmedCancel(suite.core.anna, id);
    pointAt(await deadUrl());
    let effect: EffectRow;
    try {
      effect = await relayPass(actionId);
      expect(effect).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
      effect = await relayPass(actionId);
      expect(effect).toMatchObject({ status: "pending", attempts: 2 });
    } finally {
      pointAt(suite.proxy.url);
    }
    // Back: the next attempt looks the order up (absent), then cancels it.
    effect = await relayPass(actionId);
    expect(effect.status).toBe("succeeded");
    expect(suite.proxy.count(CANCEL) - cancelsBefore).toBe(1);
    const at = await medusaOrder(id);
    expect(at.status).toBe("canceled");
    expect(at.metadata?.[OPERATION_METADATA_KEY]).toBe(actionId);
  });

  it("a read of a store answering 5xx is store_unreachable too", async () => {
    const failing = http.createServer((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"message":"down for maintenance"}');
    });
    await new Promise<void>((r) => failing.listen(0, "127.0.0.1", r));
    pointAt(`http://127.0.0.1:${(failing.address() as AddressInfo).port}`);
    try {
      const out = await status(suite.core.anna, orderOf("anna@example.com", "large"));
      expect(out).toMatchObject({ kind: "error", code: "store_unreachable" });
    } finally {
      pointAt(suite.proxy.url);
      await new Promise<void>((r) => failing.close(() => r()));
    }
  });
});
