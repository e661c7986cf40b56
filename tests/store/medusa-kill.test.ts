/**
 * Our process is SIGKILLed after Medusa applied a write and before the relay recorded it, for
 * each of the four writes at the store at once: a cancel, a return request, a received return's
 * refund and an address change. The relay runs in a child process; the fault proxy in front of
 * the REAL Medusa server lets each final request through, holds Medusa's answer, and once all
 * four are applied kills that process. The effects stay in flight; when their lease has lapsed,
 * the next relay's attempt looks each up, finds it with our operation id and records it
 * (`reconciled`): exactly one of each at Medusa, checked through its Admin API.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects } from "@/lib/effects/relay";
import { markReturnReceived } from "@/lib/returns/receive";
import {
  ADDRESS_METADATA_KEY,
  OPERATION_METADATA_KEY,
  RETURN_METADATA_KEY,
  refundNote,
} from "@/lib/store/medusa";
import { workerEnv } from "../helpers/db";
import { auditFor, newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  adminOrder,
  adminRefunds,
  adminReturns,
  medusaStore,
  ordersOf,
  storeSuite,
} from "./harness";

const _medusa = medusaStore();
const BORIS = "boris@example.com";
// The timeout leaves the four writes (a receipt is nine requests) time to reach Medusa before
// the first held answer would time out; the lease outlasts an attempt (lib/env.ts checks it).
// The test does not wait for the lease: it lapses it in our database once the relay is dead.
const ENV = {
  EFFECTS_LEASE_SECONDS: "70",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "6000",
  STRIPE_TIMEOUT_MS: "1000",
  APPROVAL_THRESHOLD_MINOR: "0",
};
const suite = storeSuite(ENV);

async function confirmed(tool: string, args: Record<string, unknown>) {
  const chatId = await newChat(suite.core.db, suite.core.boris);
  const action = await proposeWith(tool, suite.core.boris, chatId, args);
  const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, result: done.action.result as Record<string, unknown> };
}

async function effectOf(actionId: string, kind: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter((e) => e.kind === kind);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

it("SIGKILL after Medusa applied a cancel, a return, a refund and an address change, before we recorded them: each found by lookup, one of each", async () => {
  const processing = ordersOf(BORIS, "processing");
  const [cancelOrderId, addressId] = [processing[1]!, processing[4]!];
  const [, returnId, receiptId] = ordersOf(BORIS, "delivered_recent") as [string, string, string];

  // The receipt's return exists at Medusa and its parcel has arrived: its refund is due.
  const receipt = await confirmed("create_return_request", {
    orderId: receiptId,
    reason: "defective",
    comment: null,
  });
  await runDueEffects();
  expect((await effectOf(receipt.actionId, "store.create_return")).status).toBe("succeeded");
  await markReturnReceived({
    requestId: String(receipt.result.requestId),
    staffId: suite.core.staff,
  });

  const cancel = await confirmed("cancel_order", {
    orderId: cancelOrderId,
    reason: "changed_mind",
    comment: null,
  });
  const ret = await confirmed("create_return_request", {
    orderId: returnId,
    reason: "defective",
    comment: null,
  });
  const address = await confirmed("change_delivery_address", {
    orderId: addressId,
    address: {
      name: null,
      line1: "Praterstraße 1",
      line2: null,
      postalCode: "1020",
      city: "Wien",
      country: "AT",
    },
  });
  const cancelRef = (await adminOrder(cancelOrderId)).id;
  const addressRef = (await adminOrder(addressId)).id;
  const routes = {
    cancel: new RegExp(`^POST /admin/orders/${cancelRef}/cancel$`),
    request: /^POST \/admin\/returns\/[^/]+\/request$/,
    refund: /^POST \/admin\/payments\/[^/]+\/refund$/,
    address: new RegExp(`^POST /admin/orders/${addressRef}$`),
  };

  // Medusa applies each; its answer is held; once all four are applied the relay dies.
  let child: ChildProcess | undefined;
  let applied = 0;
  const onApplied = () => {
    applied++;
    if (applied === 4) child?.kill("SIGKILL");
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
  expect(applied).toBe(4);

  const writes = [
    [cancel.actionId, "store.cancel_order"],
    [ret.actionId, "store.create_return"],
    [receipt.actionId, "store.receive_return"],
    [address.actionId, "store.change_address"],
  ] as const;
  const killed = await Promise.all(writes.map(([a, k]) => effectOf(a, k)));
  for (const e of killed) expect(e).toMatchObject({ status: "in_flight", attempts: 1 });

  // What Medusa holds now: each write applied, with our operation id.
  const cancelled = await adminOrder(cancelOrderId);
  expect(cancelled.status).toBe("canceled");
  expect(cancelled.metadata?.[OPERATION_METADATA_KEY]).toBe(cancel.actionId);
  const returnRef = (await adminOrder(returnId)).id;
  expect(await adminReturns(returnRef)).toEqual([
    expect.objectContaining({
      status: "requested",
      metadata: expect.objectContaining({ [RETURN_METADATA_KEY]: ret.actionId }),
    }),
  ]);
  expect(
    adminRefunds(await adminOrder(receiptId)).filter(
      (r) => r.note === refundNote(receipt.actionId),
    ),
  ).toHaveLength(1);
  expect((await adminOrder(addressId)).metadata?.[ADDRESS_METADATA_KEY]).toBe(address.actionId);

  // The dead relay's lease lapses (set in the past rather than waited for); the next relay takes
  // each effect over and looks it up first.
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
    expect(await effectOf(actionId, kind)).toMatchObject({ status: "succeeded", attempts: 2 });
    const outcomes = (await auditFor(suite.core.db, actionId))
      .filter((e) => e.tool === `effect:${kind}`)
      .map((e) => (e.result as { outcome?: string } | null)?.outcome);
    expect(outcomes).toEqual(["reconciled"]);
  }
  // Exactly one of each reached Medusa (the receipt's own return was requested before the kill).
  expect(Object.values(routes).map((r) => suite.proxy.count(r))).toEqual([1, 2, 1, 1]);
  expect(await adminReturns(returnRef)).toHaveLength(1);
  expect(adminRefunds(await adminOrder(receiptId))).toHaveLength(1);
  // The refund found by lookup is mailed too.
  await runDueEffects();
  expect(await effectOf(receipt.actionId, "mail.refund_succeeded")).toMatchObject({
    status: "succeeded",
  });
});
