/**
 * Whose cancel is it? Our cancel writes our operation id into the order's metadata first and
 * cancels second, so a merchant who cancels the order in Medusa's admin between the two leaves
 * an order that is cancelled and carries our id. Against the REAL Medusa server (the fault proxy
 * of ./harness.ts loses the answer of our metadata write, as when our relay dies after it), the
 * merchant cancels as another actor (a secret API key of its own); the relay's next attempt must
 * not record that cancel, or its refund, as ours: Medusa names the actor of our metadata write
 * (the order change's `created_by`) and of the cancel's refunds, and they differ. Our own cancel
 * whose answer was lost is still found as ours, also after the merchant rewrote the metadata
 * (with our id in it) in between. An order never paid has no refund to tell by: its cancel is
 * credited to us (docs/stores.md). Real SQLite, confirm and relay; nothing of Medusa is faked.
 */
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { listEffectsForAction } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { actionDetail } from "@/lib/chat/action-detail";
import { presentAction } from "@/lib/chat/present";
import { runDueEffects } from "@/lib/effects/relay";
import { OPERATION_METADATA_KEY } from "@/lib/store/medusa";
import { auditFor, newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  admin,
  adminAs,
  adminOrder,
  adminRefunds,
  medusaStore,
  ordersOf,
  relayPass,
  storeSuite,
} from "./harness";

const _medusa = medusaStore();
const BORIS = "boris@example.com";
const KIND = "store.cancel_order";
const ENV = {
  EFFECTS_LEASE_SECONDS: "40",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "3000",
  APPROVAL_THRESHOLD_MINOR: "0",
};
const suite = storeSuite(ENV);
/** The merchant's own secret key at the store, and ours (their ids, as Medusa records actors). */
let merchant: { id: string; token: string };
let ourKeyId: string;

beforeAll(async () => {
  merchant = (
    await admin<{ api_key: { id: string; token: string } }>("/admin/api-keys", {
      method: "POST",
      body: { title: "Merchant's tool", type: "secret" },
    })
  ).api_key;
  const keys = await admin<{ api_keys: { id: string; title: string }[] }>(
    "/admin/api-keys?fields=id,title&limit=100",
  );
  ourKeyId = keys.api_keys.find((k) => k.title === "Returns Desk")!.id;
});

async function confirmedCancel(orderId: string) {
  const chatId = await newChat(suite.core.db, suite.core.boris);
  const action = await proposeWith("cancel_order", suite.core.boris, chatId, {
    orderId,
    reason: "changed_mind",
    comment: null,
  });
  const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, action: done.action };
}

/** Our metadata write lands at Medusa and its answer is lost: the attempt's outcome is unknown. */
async function metadataWrittenAnswerLost(id: string, actionId: string) {
  const ref = (await adminOrder(id)).id;
  suite.proxy.fault(new RegExp(`^POST /admin/orders/${ref}$`), "lose");
  const e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
  const at = await adminOrder(id);
  expect(at.status).not.toBe("canceled");
  expect(at.metadata?.[OPERATION_METADATA_KEY]).toBe(actionId);
  return ref;
}

/** The refund mails the action's effects made (the confirm's own mail is not one of them). */
const refundMails = async (actionId: string) =>
  (await listEffectsForAction({ actionId }))
    .filter((e) => e.kind.startsWith("mail.refund_"))
    .map((e) => ({ kind: e.kind, status: e.status }));

const outcomes = async (actionId: string) =>
  (await auditFor(suite.core.db, actionId))
    .filter((e) => e.tool === `effect:${KIND}`)
    .map((e) => (e.result as { outcome?: string } | null)?.outcome);

it("a merchant cancels (as another actor) after our metadata write and before our cancel: not recorded as ours, no refund mail, one cancel at Medusa", async () => {
  const id = ordersOf(BORIS, "processing")[7]!;
  const { actionId, action } = await confirmedCancel(id);
  const ref = await metadataWrittenAnswerLost(id, actionId);
  const cancel = new RegExp(`^POST /admin/orders/${ref}/cancel$`);

  // The merchant cancels the order in Medusa's admin; Medusa's cancel refunds the payment.
  await adminAs(merchant.token, `/admin/orders/${ref}/cancel`, { method: "POST" });

  // The next attempt looks it up: cancelled, our id in the metadata, but the cancel's refund was
  // made by the merchant's key, not by the key that wrote our id.
  let e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "failed", lastErrorCode: "already_cancelled_at_store" });
  expect(await outcomes(actionId)).toEqual(["retry", "failed"]);

  // A relay that starts over from scratch (no lookup: cancel() reads the order itself) says the
  // same and sends nothing.
  await suite.core.db
    .update(effects)
    .set({
      status: "pending",
      settledAt: null,
      nextAttemptAt: new Date(0),
      attempts: 0,
      lastErrorCode: null,
    })
    .where(eq(effects.id, e.id));
  e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "failed", lastErrorCode: "already_cancelled_at_store" });

  // Medusa: one cancel (the merchant's), one refund (by the merchant's key), none of ours sent.
  expect(suite.proxy.count(cancel)).toBe(0);
  const at = await adminOrder(id);
  expect(at.status).toBe("canceled");
  expect(adminRefunds(at)).toEqual([
    expect.objectContaining({ amount: 19, created_by: merchant.id }),
  ]);

  // No mail says we refunded (nor that a refund of ours failed).
  await runDueEffects();
  expect(await refundMails(actionId)).toEqual([]);

  // The card says the store cancelled it, not that we did or refunded, in English and Russian.
  const detail = await actionDetail({ actionId, user: { id: suite.core.boris, role: "customer" } });
  expect(detail.view.outcome).toMatchObject({
    settled: true,
    text: expect.stringContaining("cancelled at the store itself, not through this request"),
  });
  expect(detail.view.outcome?.text).not.toMatch(/refunded|will be refunded/);
  const ru = presentAction(action, "ru", detail.effects);
  expect(ru.view.outcome?.text).toContain("отменили в самом магазине");
});

it("our own cancel, its answer lost, after the merchant rewrote the metadata (our id in it) in between: found as ours, mailed once", async () => {
  const id = ordersOf(BORIS, "processing")[8]!;
  const { actionId } = await confirmedCancel(id);
  const ref = (await adminOrder(id)).id;
  const cancel = new RegExp(`^POST /admin/orders/${ref}/cancel$`);

  // Our metadata lands; our cancel gets a 503 and never reaches Medusa.
  suite.proxy.fault(cancel, "503");
  let e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "pending", lastErrorCode: "http_503" });
  // The merchant edits the order's metadata as a whole (ours kept in it), as an admin form does.
  const { metadata } = await adminOrder(id);
  await adminAs(merchant.token, `/admin/orders/${ref}`, {
    method: "POST",
    body: { metadata: { ...metadata, packed_by: "warehouse" } },
  });

  // Our cancel lands; its answer is lost. The lookup after it finds it ours.
  suite.proxy.fault(cancel, "lose");
  e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
  e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "succeeded", providerRef: ref });
  expect(await outcomes(actionId)).toEqual(["retry", "retry", "reconciled"]);
  expect(suite.proxy.count(cancel)).toBe(1);
  expect(adminRefunds(await adminOrder(id))).toEqual([
    expect.objectContaining({ amount: 19, created_by: ourKeyId }),
  ]);
  await runDueEffects();
  expect(await refundMails(actionId)).toEqual([
    { kind: "mail.refund_succeeded", status: "succeeded" },
  ]);
});

it("an order never paid, cancelled by the merchant after our metadata write: no refund tells whose, so it is credited to us (docs/stores.md)", async () => {
  const [id] = ordersOf(BORIS, "unpaid") as [string];
  const { actionId } = await confirmedCancel(id);
  const ref = await metadataWrittenAnswerLost(id, actionId);
  await adminAs(merchant.token, `/admin/orders/${ref}/cancel`, { method: "POST" });
  const e = await relayPass(actionId, KIND);
  expect(e).toMatchObject({ status: "succeeded", providerRef: ref });
  expect(suite.proxy.count(new RegExp(`^POST /admin/orders/${ref}/cancel$`))).toBe(0);
  expect(adminRefunds(await adminOrder(id))).toEqual([]);
});
