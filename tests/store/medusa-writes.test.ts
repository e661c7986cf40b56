/**
 * The other writes at a REAL Medusa v2 server (the demo store of scripts/store-medusa.mjs):
 * create_return_request requests a return there, staff's Mark received receives it there and
 * refunds its amount of the captured payment, and change_delivery_address changes the order's
 * shipping address there. Each exactly once: a repeated relay pass and the lookup after a lost
 * answer or a 5xx send nothing twice, and an order changed at the store between the plan and
 * the confirm gets nothing. Real SQLite, executor, confirm and relay; nothing of Medusa is faked.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendMessages } from "@/db/queries/chats";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { actionDetail } from "@/lib/chat/action-detail";
import { registerReplanner } from "@/lib/chat/replan";
import { getChatView } from "@/lib/chat/service";
import { setReplanner } from "@/lib/effects/replan";
import { markReturnReceived } from "@/lib/returns/receive";
import { ADDRESS_METADATA_KEY, RETURN_METADATA_KEY, refundNote } from "@/lib/store/medusa";
import { auditFor, newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  admin,
  adminOrder,
  adminRefunds,
  adminReturns,
  medusaStore,
  ordersOf,
  relayPass,
  storeSuite,
  touchAtStore,
} from "./harness";

const _medusa = medusaStore();
const ENV = {
  EFFECTS_LEASE_SECONDS: "120",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "10",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "10000",
  APPROVAL_THRESHOLD_MINOR: "0",
};
const suite = storeSuite(ENV);

const orders = (state: string) => ordersOf("anna@example.com", state);

/** The effect as a relay that lost its record finds it: due again, from its first attempt. */
async function forgetOutcome(effect: EffectRow) {
  await suite.core.db
    .update(effects)
    .set({ status: "pending", settledAt: null, nextAttemptAt: new Date(0), attempts: 0 })
    .where(eq(effects.id, effect.id));
}

const ctx = async () => ({
  userId: suite.core.anna,
  chatId: await newChat(suite.core.db, suite.core.anna),
  promptVersion: "test-prompt-1",
  model: "test-model",
});

async function confirmed(
  tool: "create_return_request" | "change_delivery_address",
  args: Record<string, unknown>,
) {
  const chatId = await newChat(suite.core.db, suite.core.anna);
  const action = await proposeWith(tool, suite.core.anna, chatId, args);
  const done = await confirmAction({ actionId: action.id, userId: suite.core.anna });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, result: done.action.result as Record<string, unknown> };
}

/** Anna's card note for the action, as GET /api/actions/{id} has it. */
const noteOf = async (actionId: string) =>
  (await actionDetail({ actionId, user: { id: suite.core.anna, role: "customer" } })).view.outcome;

const returnArgs = (orderId: string) => ({ orderId, reason: "defective", comment: null });
const NEW_ADDRESS = {
  name: null,
  line1: "Neue Straße 5",
  line2: null,
  postalCode: "20095",
  city: "Hamburg",
  country: "DE",
};

// The composition root's injection (lib/startup.ts): the relay's fresh plans after a refusal.
beforeAll(() => registerReplanner());

afterAll(() => setReplanner(null));

describe("create_return_request at the store", () => {
  it("our policy decides on the store's facts: shipped is not returnable yet, 45 days ago is past the window", async () => {
    const shipped = await executeToolCall(
      "create_return_request",
      returnArgs(orders("shipped")[0]!),
      await ctx(),
    );
    expect(shipped).toMatchObject({ kind: "error" });
    expect(shipped).toMatchObject({ code: "not_delivered" });
    const old = await executeToolCall(
      "create_return_request",
      returnArgs(orders("delivered_old")[0]!),
      await ctx(),
    );
    expect(old).toMatchObject({ kind: "error", code: "return_window_passed" });
  });

  it("a confirmed return is requested at Medusa once with our operation id; Mark received receives it and refunds its amount there, once", async () => {
    const id = orders("delivered_recent")[0]!;
    const card = await executeToolCall("create_return_request", returnArgs(id), await ctx());
    expect(card).toMatchObject({ kind: "proposal" });
    const { actionId, result } = await confirmed("create_return_request", returnArgs(id));
    expect(result).toMatchObject({ orderId: id, createdNow: true, refund: { amount: 11_700 } });
    const ref = (await adminOrder(id)).id;
    expect(await adminReturns(ref)).toHaveLength(0);
    // Until the store has it, no mail says it was made (the mail waits on the store's effect)...
    const kinds = async () => (await listEffectsForAction({ actionId })).map((e) => e.kind);
    expect(await kinds()).toEqual(["store.create_return"]);
    // ...and the card says it is on its way there.
    expect(await noteOf(actionId)).toMatchObject({
      tone: "neutral",
      settled: false,
      text: expect.stringContaining("is being sent to the store"),
    });

    // A lost answer to the final request: the next attempt finds our return and sends nothing.
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/request$/, "lose");
    const first = await relayPass(actionId, "store.create_return");
    expect(first).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    const done = await relayPass(actionId, "store.create_return");
    expect(done.status).toBe("succeeded");
    expect((await noteOf(actionId))?.text).toContain("Return request created");
    expect(await kinds()).toContain("mail.return_confirmed");
    const atStore = await adminReturns(ref);
    expect(atStore).toHaveLength(1);
    expect(atStore[0]).toMatchObject({ id: done.providerRef, status: "requested" });
    expect(atStore[0]!.metadata[RETURN_METADATA_KEY]).toBe(actionId);
    expect(suite.proxy.count(/^POST \/admin\/returns$/)).toBe(1);

    // A relay that lost its record starts over: the store shows our return, nothing is sent.
    await forgetOutcome(done);
    expect((await relayPass(actionId, "store.create_return")).status).toBe("succeeded");
    expect(await adminReturns(ref)).toHaveLength(1);
    expect(suite.proxy.count(/^POST \/admin\/returns$/)).toBe(1);

    // Asking again is the existing return, not a new card.
    const again = await executeToolCall("create_return_request", returnArgs(id), await ctx());
    expect(again).toMatchObject({ kind: "existing", data: { createdNow: false } });

    // Staff: the parcel arrived. The refund's answer is lost once: looked up, not sent again.
    const requestId = String(result.requestId);
    const received = await markReturnReceived({ requestId, staffId: suite.core.staff });
    expect(received.return).toMatchObject({ id: requestId, state: "received" });
    suite.proxy.fault(/^POST \/admin\/payments\/[^/]+\/refund$/, "lose");
    const lost = await relayPass(actionId, "store.receive_return");
    expect(lost).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    const refunded = await relayPass(actionId, "store.receive_return");
    expect(refunded.status).toBe("succeeded");
    const after = await adminOrder(id);
    const ours = adminRefunds(after).filter((r) => r.note === refundNote(actionId));
    expect(ours).toEqual([expect.objectContaining({ id: refunded.providerRef, amount: 117 })]);
    expect((await adminReturns(ref))[0]!.status).toBe("received");
    expect(suite.proxy.count(/^POST \/admin\/payments\/[^/]+\/refund$/)).toBe(1);
    expect(suite.proxy.count(/^POST \/admin\/returns\/[^/]+\/receive\/confirm$/)).toBe(1);

    await forgetOutcome(refunded);
    expect((await relayPass(actionId, "store.receive_return")).status).toBe("succeeded");
    expect(adminRefunds(await adminOrder(id))).toHaveLength(1);
    expect(suite.proxy.count(/^POST \/admin\/payments\/[^/]+\/refund$/)).toBe(1);

    // A second Mark received is a conflict, and nothing more is scheduled.
    await expect(
      markReturnReceived({ requestId, staffId: suite.core.staff }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("Medusa answering 503 to the return's first request: retried, one return", async () => {
    const id = orders("delivered_recent")[2]!;
    const { actionId } = await confirmed("create_return_request", returnArgs(id));
    const ref = (await adminOrder(id)).id;
    const before = suite.proxy.count(/^POST \/admin\/returns$/);
    suite.proxy.fault(/^POST \/admin\/returns$/, "503");
    const first = await relayPass(actionId, "store.create_return");
    expect(first).toMatchObject({ status: "pending", lastErrorCode: "http_503" });
    expect(await adminReturns(ref)).toHaveLength(0);
    const done = await relayPass(actionId, "store.create_return");
    expect(done.status).toBe("succeeded");
    expect(await adminReturns(ref)).toHaveLength(1);
    expect(suite.proxy.count(/^POST \/admin\/returns$/) - before).toBe(1);
  });

  it("an order changed at the store between the plan and the confirm gets no return", async () => {
    const id = orders("delivered_recent")[1]!;
    const chatId = await newChat(suite.core.db, suite.core.anna);
    const action = await proposeWith(
      "create_return_request",
      suite.core.anna,
      chatId,
      returnArgs(id),
    );
    await touchAtStore(id);
    expect(
      (await confirmAction({ actionId: action.id, userId: suite.core.anna })).action.status,
    ).toBe("executed");
    const settled = await relayPass(action.id, "store.create_return");
    expect(settled).toMatchObject({ status: "failed", lastErrorCode: "order_changed_at_store" });
    expect(await adminReturns((await adminOrder(id)).id)).toHaveLength(0);
    // Still returnable as it is now: the fresh proposal is the chat's open card.
    const replanned = await relayPass(action.id, "action.replan");
    expect(replanned.status).toBe("succeeded");
    expect((await getChatView({ chatId, userId: suite.core.anna })).pendingAction).toMatchObject({
      id: replanned.providerRef,
      tool: "create_return_request",
      status: "pending",
    });
  });
});

describe("change_delivery_address at the store", () => {
  it("a confirmed change sets the address at Medusa once, with our operation id; a lost answer is looked up", async () => {
    const id = orders("processing")[2]!;
    const { actionId } = await confirmed("change_delivery_address", {
      orderId: id,
      address: NEW_ADDRESS,
    });
    const path = new RegExp(`^POST /admin/orders/${(await adminOrder(id)).id}$`);
    suite.proxy.fault(path, "lose");
    const lost = await relayPass(actionId, "store.change_address");
    expect(lost).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    // While the outcome is unknown, the card says the address is on its way, not that it is set.
    expect(await noteOf(actionId)).toMatchObject({
      tone: "neutral",
      settled: false,
      text: expect.stringContaining("is being sent to the store"),
    });
    const done = await relayPass(actionId, "store.change_address");
    expect(done.status).toBe("succeeded");
    expect((await noteOf(actionId))?.text).toMatch(/is now .*Neue Straße 5/);
    const at = await adminOrder(id);
    expect(at.shipping_address).toMatchObject({
      address_1: "Neue Straße 5",
      city: "Hamburg",
      postal_code: "20095",
      first_name: "Anna",
    });
    expect(at.metadata?.[ADDRESS_METADATA_KEY]).toBe(actionId);
    expect(suite.proxy.count(path)).toBe(1);
    await forgetOutcome(done);
    expect((await relayPass(actionId, "store.change_address")).status).toBe("succeeded");
    expect(suite.proxy.count(path)).toBe(1);
    // The order reads with its new address, from the store.
    const status = await executeToolCall("get_order_status", { orderId: id }, await ctx());
    expect(status).toMatchObject({ data: { deliveryAddress: { city: "Hamburg" } } });
  });

  it("an order changed at the store between the plan and the confirm keeps its address; the fresh plan is proposed, and is a refusal once the merchant set that address", async () => {
    const id = orders("processing")[3]!;
    const chatId = await newChat(suite.core.db, suite.core.anna);
    const action = await proposeWith("change_delivery_address", suite.core.anna, chatId, {
      orderId: id,
      address: NEW_ADDRESS,
    });
    await touchAtStore(id);
    expect(
      (await confirmAction({ actionId: action.id, userId: suite.core.anna })).action.status,
    ).toBe("executed");
    const settled = await relayPass(action.id, "store.change_address");
    expect(settled).toMatchObject({ status: "failed", lastErrorCode: "order_changed_at_store" });
    expect((await adminOrder(id)).shipping_address.city).toBe("Berlin");

    // The fresh plan: the order still qualifies, so a new card in the same chat.
    const replanned = await relayPass(action.id, "action.replan");
    expect(replanned.status).toBe("succeeded");
    const freshId = replanned.providerRef!;
    const view = await getChatView({ chatId, userId: suite.core.anna });
    expect(view.pendingAction).toMatchObject({
      id: freshId,
      tool: "change_delivery_address",
      arguments: { orderId: id },
      plan: { store: { updatedAt: (await adminOrder(id)).updated_at } },
    });

    // Anna writes in Russian; the merchant then sets that very address at the store before she
    // confirms. Refused again (the order changed), and now the fresh plan is a refusal: no card,
    // the reason in the chat's language.
    await appendMessages({
      chatId,
      items: [
        {
          id: `ru-${freshId}`,
          role: "user",
          parts: [{ type: "text", text: "Да, поменяйте адрес доставки, пожалуйста" }],
        },
      ],
    });
    const before = await adminOrder(id);
    await admin(`/admin/orders/${before.id}`, {
      method: "POST",
      body: {
        shipping_address: {
          first_name: before.shipping_address.first_name,
          last_name: (before.shipping_address as { last_name?: string }).last_name ?? "",
          address_1: NEW_ADDRESS.line1,
          address_2: "",
          postal_code: NEW_ADDRESS.postalCode,
          city: NEW_ADDRESS.city,
          country_code: "de",
        },
      },
    });
    expect(
      (await confirmAction({ actionId: freshId, userId: suite.core.anna })).action.status,
    ).toBe("executed");
    expect(await relayPass(freshId, "store.change_address")).toMatchObject({
      status: "failed",
      lastErrorCode: "order_changed_at_store",
    });
    const refused = await relayPass(freshId, "action.replan");
    expect(refused).toMatchObject({ status: "succeeded", providerRef: `replan-${freshId}` });
    const last = await getChatView({ chatId, userId: suite.core.anna });
    expect(last.pendingAction).toBeNull();
    const note = last.messages.find((m) => m.id === `replan-${freshId}`);
    expect(note?.parts).toEqual([
      { type: "text", text: expect.stringContaining("он уже едет по этому адресу") },
    ]);
    // The fresh action's audit: proposed by the system in place of the first one, and, refused
    // in turn, the system's second plan for it was a refusal.
    expect(
      (await auditFor(suite.core.db, freshId)).filter((e) => e.tool === "system:replan"),
    ).toEqual([
      expect.objectContaining({
        status: "success",
        arguments: expect.objectContaining({ replaces: action.id, proposedBy: "system" }),
        result: expect.objectContaining({ outcome: "proposal", actionId: freshId }),
      }),
      expect.objectContaining({
        status: "business_error",
        errorCode: "address_unchanged",
        arguments: expect.objectContaining({ replaces: freshId, proposedBy: "system" }),
        result: expect.objectContaining({ outcome: "refused" }),
      }),
    ]);
  });
});
