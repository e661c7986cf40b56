/**
 * The REAL Medusa server dies while our writes are in flight at it, and is started again.
 *
 * Unlike the fault proxy's `stop` (our side's view of a stopped store), here the server process
 * itself is SIGKILLed (`npm run store:medusa -- kill`) right after it applied our cancel and
 * before its answer left, with an address change of ours waiting for its retry. While it is down,
 * the relay's attempts get no answer and send nothing blind, and reads say the store can't be
 * reached. Once it is started again (`npm run store:medusa -- restart`: same URL, same database),
 * the cancel is found by its lookup, with the same `canceled_at`, and the address change is sent
 * once: one of each at Medusa, checked through its Admin API.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { ADDRESS_METADATA_KEY, OPERATION_METADATA_KEY } from "@/lib/store/medusa";
import { newChat, proposeWith } from "../integration/action-core/fixtures";
import { adminOrder, adminRefunds, medusaStore, ordersOf, relayPass, storeSuite } from "./harness";

const medusa = medusaStore();
const BORIS = "boris@example.com";
const script = path.resolve(import.meta.dirname, "../../scripts/store-medusa.mjs");
const storeMedusa = (command: "kill" | "restart") =>
  promisify(execFile)(process.execPath, [script, command], { timeout: 240_000 });

const ENV = {
  EFFECTS_LEASE_SECONDS: "40",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "8",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "3000",
  APPROVAL_THRESHOLD_MINOR: "0",
};
const suite = storeSuite(ENV);

async function confirmed(chatId: string, tool: string, args: Record<string, unknown>) {
  const action = await proposeWith(tool, suite.core.boris, chatId, args);
  const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
  expect(done.action.status).toBe("executed");
  return action.id;
}

async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch(`${medusa.url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

it("the server is killed after applying our cancel, with an address change waiting, and started again: one cancel, one address change", async () => {
  const processing = ordersOf(BORIS, "processing");
  const [cancelId, addressId] = [processing[5]!, processing[6]!];
  const [cancelRef, addressRef] = [
    (await adminOrder(cancelId)).id,
    (await adminOrder(addressId)).id,
  ];
  const cancelRoute = new RegExp(`^POST /admin/orders/${cancelRef}/cancel$`);
  const addressRoute = new RegExp(`^POST /admin/orders/${addressRef}$`);
  const chatId = await newChat(suite.core.db, suite.core.boris);

  const cancel = await confirmed(chatId, "cancel_order", {
    orderId: cancelId,
    reason: "changed_mind",
    comment: null,
  });
  const address = await confirmed(chatId, "change_delivery_address", {
    orderId: addressId,
    address: {
      name: null,
      line1: "Lerchenfelder Gürtel 3",
      line2: null,
      postalCode: "1070",
      city: "Wien",
      country: "AT",
    },
  });

  // The address change's first attempt is refused (503), so it waits for a retry; the cancel
  // reaches Medusa, is applied, and the server is killed before its answer is sent.
  suite.proxy.fault(addressRoute, "503");
  let killed: Promise<unknown> | null = null;
  suite.proxy.fault(cancelRoute, "applied", () => {
    killed = storeMedusa("kill");
  });
  try {
    let c = await relayPass(cancel, "store.cancel_order");
    expect(c).toMatchObject({ status: "pending", lastErrorCode: "timeout" });
    expect(killed).not.toBeNull();
    await killed;
    expect(await serverAnswers()).toBe(false);
    let a = await relayPass(address, "store.change_address");
    expect(a.status).toBe("pending");
    expect(a.lastErrorCode).toMatch(/^(http_503|connection_error)$/);

    // Down: each attempt's lookup (or first read) gets no answer, and nothing is sent blind.
    c = await relayPass(cancel, "store.cancel_order");
    expect(c).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    a = await relayPass(address, "store.change_address");
    expect(a).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    const read = await executeToolCall(
      "get_order_status",
      { orderId: cancelId },
      { userId: suite.core.boris, chatId, promptVersion: "test-prompt-1", model: "test-model" },
    );
    expect(read).toMatchObject({ kind: "error", code: "store_unreachable" });

    // Started again: the same store, on the same URL.
    await storeMedusa("restart");
    expect(await serverAnswers()).toBe(true);
    const before = await adminOrder(cancelId);
    expect(before.status).toBe("canceled");
    expect(before.metadata?.[OPERATION_METADATA_KEY]).toBe(cancel);

    c = await relayPass(cancel, "store.cancel_order");
    expect(c).toMatchObject({ status: "succeeded", providerRef: cancelRef });
    a = await relayPass(address, "store.change_address");
    expect(a).toMatchObject({ status: "succeeded" });

    // One of each at Medusa: the cancel (and its one refund) as it was applied before the kill,
    // and the address change, once, with our id.
    const cancelled = await adminOrder(cancelId);
    expect(cancelled.canceled_at).toBe(before.canceled_at);
    expect(adminRefunds(cancelled)).toHaveLength(1);
    expect(suite.proxy.count(cancelRoute)).toBe(1);
    const moved = await adminOrder(addressId);
    expect(moved.shipping_address).toMatchObject({
      address_1: "Lerchenfelder Gürtel 3",
      city: "Wien",
    });
    expect(moved.metadata?.[ADDRESS_METADATA_KEY]).toBe(address);
  } finally {
    // Whatever failed above, the files after this one get their store back.
    await killed;
    if (!(await serverAnswers())) await storeMedusa("restart");
  }
}, 300_000);
