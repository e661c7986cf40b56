/**
 * Faults between us and a REAL Medusa server, through the fault proxy (./harness.ts): for each
 * write at the store (cancel, return request, receipt and refund, address change) the store
 * stopping in the middle of it and staying stopped while the effect is retried, answering 503,
 * losing the answer of an applied request, and answering only after MEDUSA_TIMEOUT_MS. Each ends
 * with exactly one cancellation, return, refund or address change at Medusa (checked through its
 * Admin API, not the proxy), found by the lookup, or `needs_attention` with nothing applied. A
 * refund at the store mails the customer through a real SMTP server, as ours does. Reads of a
 * stopped or slow store are `store_unreachable`, which the assistant says in the customer's
 * language. Real SQLite, confirm, relay and mail; nothing of Medusa is faked.
 */
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { en } from "@/lib/ai/models/offline/replies/en";
import { ru } from "@/lib/ai/models/offline/replies/ru";
import { runDueEffects } from "@/lib/effects/relay";
import { markReturnReceived } from "@/lib/returns/receive";
import {
  ADDRESS_METADATA_KEY,
  OPERATION_METADATA_KEY,
  RETURN_METADATA_KEY,
  refundNote,
} from "@/lib/store/medusa";
import { parseMail } from "../helpers/mime";
import { newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  adminOrder,
  adminRefunds,
  adminReturns,
  effectOf,
  medusaStore,
  ordersOf,
  relayPass,
  storeSuite,
} from "./harness";

const _medusa = medusaStore();
const BORIS = "boris@example.com";
// A late answer is one the relay stops waiting for: the timeout is short so that costs little,
// and the lease outlasts an attempt's requests (lib/env.ts checks it).
const ENV = {
  EFFECTS_LEASE_SECONDS: "30",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "1500",
  APPROVAL_THRESHOLD_MINOR: "0",
  MAIL_FROM: "Returns Desk <returns@shop.test>",
};
let smtp: SMTPServer;
let smtpUrl = "";
let inbox: { to: string[]; raw: string }[] = [];

async function confirmed(tool: string, args: Record<string, unknown>) {
  const chatId = await newChat(suite.core.db, suite.core.boris);
  const action = await proposeWith(tool, suite.core.boris, chatId, args);
  const done = await confirmAction({ actionId: action.id, userId: suite.core.boris });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, result: done.action.result as Record<string, unknown> };
}

/** The refund mails the relay delivered for this action, through the SMTP server. */
async function refundMails(actionId: string) {
  // The mail is a follow-up effect of the refund's outcome: one more pass sends it.
  await runDueEffects();
  return inbox
    .filter((m) => m.raw.includes(`rd-${actionId}-mail.refund_succeeded`))
    .map((m) => ({ to: m.to, mail: parseMail(m.raw) }));
}

/** Boris was mailed the refund of `amount` (minor units) for the order, once, through SMTP. */
async function expectOneRefundMail(actionId: string, orderId: string, amount: number) {
  const mails = await refundMails(actionId);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.to).toEqual([BORIS]);
  expect(mails[0]!.mail.text).toContain(orderId);
  expect(await effectOf(actionId, "mail.refund_succeeded")).toMatchObject({
    status: "succeeded",
    payload: expect.objectContaining({ orderId, amount, currency: "EUR" }),
  });
}

beforeAll(async () => {
  inbox = [];
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
});
// After the SMTP server above: the store-backed core mails through it.
const suite = storeSuite(() => ({ ...ENV, SMTP_URL: smtpUrl }));

afterAll(async () => {
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

describe("faults during a write at the store", () => {
  it("cancel: Medusa stops between our metadata and the cancel and stays down, then 503, then a late answer: one cancel, found by lookup, and the refund mail", async () => {
    const id = ordersOf(BORIS, "processing")[2]!;
    const ref = (await adminOrder(id)).id;
    const cancel = new RegExp(`^POST /admin/orders/${ref}/cancel$`);
    const { actionId } = await confirmed("cancel_order", {
      orderId: id,
      reason: "changed_mind",
      comment: null,
    });

    suite.proxy.fault(cancel, "stop");
    let e = await relayPass(actionId, "store.cancel_order");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    // Still stopped: the next attempt's lookup gets no answer either; nothing is sent.
    e = await relayPass(actionId, "store.cancel_order");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    expect((await adminOrder(id)).status).not.toBe("canceled");
    expect((await adminOrder(id)).metadata?.[OPERATION_METADATA_KEY]).toBe(actionId);

    await suite.proxy.start();
    suite.proxy.fault(cancel, "503");
    e = await relayPass(actionId, "store.cancel_order");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "http_503" });
    expect(suite.proxy.count(cancel)).toBe(0);

    suite.proxy.fault(cancel, "late");
    e = await relayPass(actionId, "store.cancel_order");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "timeout" });
    const applied = await adminOrder(id);
    expect(applied.status).toBe("canceled");

    e = await relayPass(actionId, "store.cancel_order");
    expect(e).toMatchObject({ status: "succeeded", providerRef: ref });
    expect(suite.proxy.count(cancel)).toBe(1);
    expect((await adminOrder(id)).canceled_at).toBe(applied.canceled_at);

    // Medusa refunded the captured payment with the cancel: Boris is mailed, once.
    await expectOneRefundMail(actionId, id, 1900);
  });

  it("return and its refund: stopped half-way, late answers and a 503: one return, one refund, one mail", async () => {
    const id = ordersOf(BORIS, "delivered_recent")[0]!;
    const ref = (await adminOrder(id)).id;
    const { actionId, result } = await confirmed("create_return_request", {
      orderId: id,
      reason: "defective",
      comment: null,
    });

    // The store stops after our return was begun (a draft carrying our id), before its items.
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/request-items$/, "stop");
    let e = await relayPass(actionId, "store.create_return");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    await suite.proxy.start();
    // Back, but the request that completes the return answers late: the draft is dropped and a
    // new return made; the lookup after the timeout finds it requested.
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/request$/, "late");
    e = await relayPass(actionId, "store.create_return");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "timeout" });
    e = await relayPass(actionId, "store.create_return");
    expect(e.status).toBe("succeeded");
    const returns = await adminReturns(ref);
    expect(returns).toEqual([expect.objectContaining({ id: e.providerRef, status: "requested" })]);
    expect(returns[0]!.metadata[RETURN_METADATA_KEY]).toBe(actionId);

    // Staff: the parcel arrived. The receive's confirm gets a 503, the refund a late answer.
    await markReturnReceived({ requestId: String(result.requestId), staffId: suite.core.staff });
    suite.proxy.fault(/^POST \/admin\/returns\/[^/]+\/receive\/confirm$/, "503");
    const refund = /^POST \/admin\/payments\/[^/]+\/refund$/;
    suite.proxy.fault(refund, "late");
    e = await relayPass(actionId, "store.receive_return");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "http_503" });
    e = await relayPass(actionId, "store.receive_return");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "timeout" });
    e = await relayPass(actionId, "store.receive_return");
    expect(e.status).toBe("succeeded");
    const ours = adminRefunds(await adminOrder(id)).filter((r) => r.note === refundNote(actionId));
    expect(ours).toEqual([expect.objectContaining({ id: e.providerRef, amount: 29 })]);
    expect(suite.proxy.count(refund)).toBe(1);
    expect((await adminReturns(ref)).map((r) => r.status)).toEqual(["received"]);

    await expectOneRefundMail(actionId, id, 2900);
  });

  it("address: a 503, then a lost answer: set once; with the store stopped throughout, needs_attention and nothing applied", async () => {
    const id = ordersOf(BORIS, "processing")[3]!;
    const ref = (await adminOrder(id)).id;
    const write = new RegExp(`^POST /admin/orders/${ref}$`);
    const address = (city: string) => ({
      orderId: id,
      address: {
        name: null,
        line1: "Praterstraße 1",
        line2: null,
        postalCode: "1020",
        city,
        country: "AT",
      },
    });
    const first = await confirmed("change_delivery_address", address("Wien"));
    suite.proxy.fault(write, "503");
    suite.proxy.fault(write, "lose");
    let e = await relayPass(first.actionId, "store.change_address");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "http_503" });
    e = await relayPass(first.actionId, "store.change_address");
    expect(e).toMatchObject({ status: "pending", lastErrorCode: "connection_error" });
    e = await relayPass(first.actionId, "store.change_address");
    expect(e).toMatchObject({ status: "succeeded" });
    expect(suite.proxy.count(write)).toBe(1);
    let at = await adminOrder(id);
    expect(at.shipping_address).toMatchObject({ address_1: "Praterstraße 1", city: "Wien" });
    expect(at.metadata?.[ADDRESS_METADATA_KEY]).toBe(first.actionId);

    // A second change, and the store stops at its first request and stays down.
    const second = await confirmed("change_delivery_address", address("Graz"));
    suite.proxy.fault(new RegExp(`^GET /admin/orders/${ref}$`), "stop");
    try {
      for (let i = 0; i < Number(ENV.EFFECTS_MAX_ATTEMPTS); i++)
        e = await relayPass(second.actionId, "store.change_address");
    } finally {
      await suite.proxy.start();
    }
    expect(e).toMatchObject({ status: "needs_attention", lastErrorCode: "connection_error" });
    expect(suite.proxy.count(write)).toBe(1);
    at = await adminOrder(id);
    expect(at.shipping_address).toMatchObject({ address_1: "Praterstraße 1", city: "Wien" });
    expect(at.metadata?.[ADDRESS_METADATA_KEY]).toBe(first.actionId);
  });
});

describe("reads of a store that is down or slow", () => {
  it("stopped or answering late: store_unreachable, which the assistant says in the customer's language", async () => {
    const id = ordersOf(BORIS, "processing")[0]!;
    const ask = async () =>
      executeToolCall(
        "get_order_status",
        { orderId: id },
        {
          userId: suite.core.boris,
          chatId: await newChat(suite.core.db, suite.core.boris),
          promptVersion: "test-prompt-1",
          model: "test-model",
        },
      );
    suite.proxy.fault(/^GET \/admin\/orders$/, "late");
    expect(await ask()).toMatchObject({ kind: "error", code: "store_unreachable" });
    suite.proxy.fault(/^GET \/admin\/orders$/, "stop");
    try {
      expect(await ask()).toMatchObject({ kind: "error", code: "store_unreachable" });
    } finally {
      await suite.proxy.start();
    }
    expect(await ask()).toMatchObject({ kind: "result", data: { orderId: id } });
    // What the customer reads for that code, never a status.
    expect(en.businessError("store_unreachable", id)).toMatch(/can't reach the store/);
    expect(ru.businessError("store_unreachable", id)).toMatch(/не могу связаться с магазином/);
  });
});
