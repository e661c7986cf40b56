/**
 * The staff work queue's own rules (lib/work-queue/queue.ts), below its routes: what a row shows
 * staff (the customer, the chat, the tool; none for an effect without a chat action), the audit
 * event each retry and resolve leaves (who, which effect, from which status to which, and the
 * refusal's code), the refusals' words, the relay woken by a retry, a held canary restarted only
 * by a retry that happened, and the newest canaries only. Real database (SQLite); the routes
 * and the relay around it are in mail-and-receive.test.ts and effects-canary.test.ts.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getEffectCanary } from "@/db/queries/effect-canaries";
import { auditEvents, effectCanaries, effects } from "@/db/schema";
import { setRelayBell } from "@/lib/effects/signal";
import {
  CANARY_LIMIT,
  listCanaries,
  listQueue,
  RESOLVE_EFFECT,
  RETRY_EFFECT,
  resolveQueuedEffect,
  retryQueuedEffect,
} from "@/lib/work-queue/queue";
import {
  type Core,
  insertDeliveredOrder,
  newChat,
  proposeWith,
  refusal,
  setupCore,
} from "./action-core/fixtures";

let core: Core;
let nextOrder = 8800;

beforeAll(async () => {
  core = await setupCore();
});

afterEach(() => setRelayBell(null));

/** A chat action of Anna's: a proposed return of an order of its own. */
async function chatAction(): Promise<{ actionId: string; chatId: string }> {
  const orderId = await insertDeliveredOrder(core.db, {
    id: String(nextOrder++),
    userId: core.anna,
    total: 2000,
  });
  const chatId = await newChat(core.db, core.anna);
  const action = await proposeWith("create_return_request", core.anna, chatId, {
    orderId,
    reason: "damaged",
    comment: null,
  });
  return { actionId: action.id, chatId };
}

/** A refund effect as the relay left it, of a chat action of its own unless told otherwise. */
async function effectRow(status: "failed" | "needs_attention" | "pending", ofAction?: string) {
  const id = randomUUID();
  const at = new Date(Date.now() - 60_000);
  const owner = ofAction ? { actionId: ofAction, chatId: null } : await chatAction();
  await core.db.insert(effects).values({
    id,
    actionId: owner.actionId,
    kind: "payment.refund",
    idempotencyKey: `rd-${id}-payment.refund`,
    payload: { orderId: "8801", paymentRef: "pi_test8801", amount: 2000, currency: "EUR" },
    status,
    attempts: 3,
    nextAttemptAt: at,
    lastErrorCode: status === "pending" ? null : "http_500",
    createdAt: at,
    updatedAt: at,
    settledAt: status === "pending" ? null : at,
  });
  const [row] = await core.db.select().from(effects).where(eq(effects.id, id));
  return { ...row!, chatId: owner.chatId };
}

const auditOf = async (tool: string, effectId: string) =>
  (await core.db.select().from(auditEvents).where(eq(auditEvents.tool, tool))).filter(
    (e) => (e.arguments as { effectId?: string }).effectId === effectId,
  );

describe("what the queue shows", () => {
  it("a chat action's effect names its customer, chat and tool; another names none", async () => {
    const mine = await effectRow("failed");
    const orphan = await effectRow("failed", `op-${randomUUID()}`);
    const listed = await listQueue({ statuses: ["failed"] });
    expect(listed.find((e) => e.id === mine.id)).toMatchObject({
      actionId: mine.actionId,
      status: "failed",
      attempts: 3,
      lastErrorCode: "http_500",
      tool: "create_return_request",
      customer: { id: core.anna, email: "anna@example.com" },
      chatId: mine.chatId,
      settledAt: mine.settledAt?.toISOString(),
    });
    expect(listed.find((e) => e.id === orphan.id)).toMatchObject({
      tool: null,
      customer: null,
      chatId: null,
    });
  });

  it("the newest canaries only, newest first", async () => {
    const t = Date.now();
    for (let i = 0; i <= CANARY_LIMIT; i++) {
      await core.db.insert(effectCanaries).values({
        kind: "payment.refund",
        fingerprint: `fp-${String(i).padStart(2, "0")}`,
        provider: "stripe",
        status: "running",
        required: 3,
        startedAt: new Date(t + i * 1000),
        updatedAt: new Date(t + i * 1000),
      });
    }
    const shown = await listCanaries();
    expect(shown).toHaveLength(CANARY_LIMIT);
    expect(shown[0]!.fingerprint).toBe(`fp-${CANARY_LIMIT}`);
    // Still running: not settled.
    expect(shown[0]!.settledAt).toBeNull();
    expect(shown.map((c) => c.fingerprint)).not.toContain("fp-00");
  });
});

describe("a retry", () => {
  it("sends it back to the relay, rings the relay, and is audited with who, what and from where", async () => {
    const e = await effectRow("needs_attention");
    let rings = 0;
    setRelayBell({ ring: () => rings++ });
    const { effect } = await retryQueuedEffect({
      id: e.id,
      staffId: core.staff,
      seen: e.updatedAt,
    });
    expect(effect).toMatchObject({ id: e.id, status: "pending", attempts: 0, chatId: e.chatId });
    expect(rings).toBe(1);
    const [event] = await auditOf(RETRY_EFFECT, e.id);
    expect(event).toMatchObject({
      tool: "staff:retry_effect",
      access: "write",
      status: "success",
      errorCode: null,
      userId: core.staff,
      actionId: e.actionId,
      arguments: { effectId: e.id, kind: "payment.refund", seen: e.updatedAt.toISOString() },
      result: { effectId: e.id, from: "needs_attention", status: "pending" },
    });
  });

  it("as it was not seen: 409 with why, audited as refused, and its held canary stays held", async () => {
    const e = await effectRow("failed");
    const fingerprint = `fp-held-${e.id}`;
    await core.db.insert(effectCanaries).values({
      kind: "payment.refund",
      fingerprint,
      provider: "stripe",
      status: "held",
      required: 3,
      failedEffectId: e.id,
      lastErrorCode: "http_500",
      startedAt: new Date(0),
      updatedAt: new Date(0),
      settledAt: new Date(0),
    });
    const stale = new Date(e.updatedAt.getTime() - 1000);
    const err = await refusal(retryQueuedEffect({ id: e.id, staffId: core.staff, seen: stale }));
    expect(err.code).toBe("conflict");
    expect(err.message).toBe(
      "Only a failed or needs_attention effect can be retried, and only as you saw it: it has changed since.",
    );
    const [event] = await auditOf(RETRY_EFFECT, e.id);
    expect(event).toMatchObject({
      access: "write",
      status: "business_error",
      errorCode: "wrong_status",
      arguments: { effectId: e.id, kind: "payment.refund", seen: stale.toISOString() },
      result: { effectId: e.id, from: "failed", status: "failed" },
    });
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint })).toMatchObject({
      status: "held",
      failedEffectId: e.id,
    });
    // Retried as seen: the canary runs again, with this effect first.
    await retryQueuedEffect({ id: e.id, staffId: core.staff, seen: e.updatedAt });
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint })).toMatchObject({
      status: "running",
      currentEffectId: e.id,
      failedEffectId: null,
    });
  });

  it("of no such effect: 404", async () => {
    const err = await refusal(
      retryQueuedEffect({ id: "no-such-effect", staffId: core.staff, seen: new Date() }),
    );
    expect([err.code, err.message]).toEqual(["not_found", "No such effect."]);
  });
});

describe("a resolve", () => {
  it("settles it by hand with the note, audited with the note", async () => {
    const e = await effectRow("failed");
    const { effect } = await resolveQueuedEffect({
      id: e.id,
      staffId: core.staff,
      note: "Paid by bank transfer",
    });
    expect(effect).toMatchObject({
      status: "resolved",
      resolutionNote: "Paid by bank transfer",
      resolvedBy: core.staff,
    });
    const [event] = await auditOf(RESOLVE_EFFECT, e.id);
    expect(event).toMatchObject({
      status: "success",
      arguments: { effectId: e.id, kind: "payment.refund", note: "Paid by bank transfer" },
      result: { effectId: e.id, from: "failed", status: "resolved" },
    });
  });

  it("of an effect the relay still owns: 409 with why, and nothing changes", async () => {
    const e = await effectRow("pending");
    const err = await refusal(resolveQueuedEffect({ id: e.id, staffId: core.staff, note: "x" }));
    expect([err.code, err.message]).toEqual([
      "conflict",
      "Only a failed or needs_attention effect can be resolved; this one is not.",
    ]);
    const [event] = await auditOf(RESOLVE_EFFECT, e.id);
    expect(event).toMatchObject({
      status: "business_error",
      errorCode: "wrong_status",
      arguments: { note: "x" },
      result: { from: "pending", status: "pending" },
    });
    const [row] = await core.db
      .select()
      .from(effects)
      .where(and(eq(effects.id, e.id), eq(effects.status, "pending")));
    expect(row).toBeDefined();
  });
});
