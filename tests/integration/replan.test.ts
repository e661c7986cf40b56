/**
 * The fresh plan after the store refused a write (`action.replan`, lib/effects/replan.ts), made
 * exactly once however its attempts race: two relays whose leases overlapped both carry it out at
 * once, a relay dies after storing it and before recording it, two passes run together, and a
 * relay that lost its record starts over. One fresh proposal, one chat message, one audit event
 * of the system's plan. On SQLite, and on PostgreSQL in the postgres project.
 *
 * The store's refusal itself (and the relay storing this follow-up with it) is tested against the
 * real Medusa server (tests/store/medusa.test.ts); here the follow-up is stored as the relay stores
 * it (enqueueFollowUps with replanAfter's request), for an action on the built-in store whose
 * order still qualifies, so the fresh plan is a proposal.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMessages } from "@/db/queries/chats";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { writeTransaction } from "@/db/queries/tx";
import { effects, pendingActions } from "@/db/schema";
import { cancelAction } from "@/lib/actions/cancel";
import { loadActionLife } from "@/lib/audit/timeline";
import { requestHandoff } from "@/lib/chat/handoff";
import { registerReplanner } from "@/lib/chat/replan";
import { getChatView } from "@/lib/chat/service";
import { enqueueFollowUps } from "@/lib/effects/outbox";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { replanAfter, replanner, setReplanner } from "@/lib/effects/replan";
import { auditRows, type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

let core: Core;

beforeAll(async () => {
  core = await setupCore({ EFFECTS_RETRY_BASE_MS: "1", EFFECTS_RETRY_MAX_MS: "5" });
  // The composition root's injection (lib/startup.ts).
  registerReplanner();
});

afterAll(async () => {
  await stopRelay();
  setReplanner(null);
});

/**
 * A cancel_order action whose store write was refused, and its follow-up as the relay stores it
 * with the refusal. The customer's chat has the old card only.
 */
async function refused(orderId: string, userId: string) {
  const chatId = await newChat(core.db, userId);
  const action = await proposeWith("cancel_order", userId, chatId, {
    orderId,
    reason: "changed_mind",
    comment: null,
  });
  // Taken out of the way (on the store it is executed; here nothing was written for it).
  await cancelAction({ actionId: action.id, userId });
  const requests = replanAfter(
    {
      id: "ef_refused",
      kind: "store.cancel_order",
      status: "failed",
      lastErrorCode: "order_changed_at_store",
    },
    "cancel_order",
  );
  expect(requests).toHaveLength(1);
  const stored = await writeTransaction(() =>
    enqueueFollowUps({ actionId: action.id, effects: requests, now: new Date() }),
  );
  expect(stored).toEqual(["action.replan"]);
  // A second recording of the same refusal (another relay, a replay) stores no second one.
  expect(
    await writeTransaction(() =>
      enqueueFollowUps({ actionId: action.id, effects: requests, now: new Date() }),
    ),
  ).toEqual([]);
  const [effect] = (await listEffectsForAction({ actionId: action.id })).filter(
    (e) => e.kind === "action.replan",
  );
  return { chatId, action, effect: effect! };
}

const refOf = (e: EffectRow) => ({
  effectId: e.id,
  actionId: e.actionId,
  operationId: e.actionId,
  idempotencyKey: e.idempotencyKey,
});

/** What the customer and staff can observe of the fresh plan. */
async function observed(chatId: string, userId: string, refusedId: string) {
  const actions = await core.db
    .select()
    .from(pendingActions)
    .where(eq(pendingActions.chatId, chatId));
  const messages = (await listMessages({ chatId })).filter((m) => m.id.startsWith("replan-"));
  const audit = (await auditRows(core.db)).filter(
    (e) =>
      e.tool === "system:replan" &&
      (e.arguments as { replaces?: string } | null)?.replaces === refusedId,
  );
  const view = await getChatView({ chatId, userId });
  return {
    fresh: actions.filter((a) => a.id !== refusedId),
    messages,
    audit,
    pending: view.pendingAction?.id ?? null,
  };
}

describe("the fresh plan after the store refused a write, exactly once", () => {
  it("two relays carrying it out at once, then the relay's own passes: one proposal, one message", async () => {
    const { chatId, action, effect } = await refused("3004", core.anna);
    const exec = replanner();
    if (!exec) throw new Error("no replanner registered");
    const payload = effect.payload as Parameters<typeof exec.propose>[0];
    // Two relays whose leases overlapped: both plan, both try to store.
    const [a, b] = await Promise.all([
      exec.propose(payload, refOf(effect)),
      exec.propose(payload, refOf(effect)),
    ]);
    expect(a).toEqual(b);
    expect(a.kind).toBe("succeeded");
    const freshId = (a as { providerRef: string }).providerRef;

    // Neither recorded it (as if both died): the relay's passes, two at once, then one more.
    await Promise.all([runDueEffects(), runDueEffects()]);
    await runDueEffects();
    const [settled] = (await listEffectsForAction({ actionId: action.id })).filter(
      (e) => e.kind === "action.replan",
    );
    expect(settled).toMatchObject({ status: "succeeded", providerRef: freshId });

    // A relay that lost its record starts over: it finds the message and stores nothing.
    await core.db
      .update(effects)
      .set({ status: "pending", settledAt: null, nextAttemptAt: new Date(0), attempts: 0 })
      .where(eq(effects.id, effect.id));
    await runDueEffects();

    const seen = await observed(chatId, core.anna, action.id);
    expect(seen.fresh.map((f) => [f.id, f.status, f.userId, f.tool])).toEqual([
      [freshId, "pending", core.anna, "cancel_order"],
    ]);
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]!.parts).toEqual([
      expect.objectContaining({ type: "text" }),
      expect.objectContaining({ type: "data-pending-action", id: freshId }),
    ]);
    expect(seen.audit).toHaveLength(1);
    expect(seen.pending).toBe(freshId);
    // Staff's page: the fresh action's life starts as proposed by the system, not the assistant.
    const life = await loadActionLife({ actionId: freshId });
    expect(life?.steps.map((step) => [step.status, step.actor])).toEqual([
      ["confirmation_required", { kind: "system", why: "replan" }],
      ["success", { kind: "system", why: "replan" }],
    ]);
  });

  it("a relay that died after storing it and before recording it: the next attempt finds it", async () => {
    const { chatId, action, effect } = await refused("1187", core.boris);
    const exec = replanner()!;
    const first = await exec.propose(
      effect.payload as Parameters<typeof exec.propose>[0],
      refOf(effect),
    );
    expect(first.kind).toBe("succeeded");
    // The dead relay's claim: its attempt counted, the lease lapsed.
    await core.db.update(effects).set({ attempts: 1 }).where(eq(effects.id, effect.id));
    await runDueEffects();
    const [settled] = (await listEffectsForAction({ actionId: action.id })).filter(
      (e) => e.kind === "action.replan",
    );
    expect(settled).toMatchObject({
      status: "succeeded",
      providerRef: (first as { providerRef: string }).providerRef,
    });
    const seen = await observed(chatId, core.boris, action.id);
    expect(seen.fresh).toHaveLength(1);
    expect(seen.messages).toHaveLength(1);
    expect(seen.audit).toHaveLength(1);
  });

  it("in a chat a person has taken over: no card, the customer is told the person looks at it", async () => {
    const { chatId, action, effect } = await refused("3004", core.anna);
    await requestHandoff({ chatId, userId: core.anna });
    await runDueEffects();
    const [settled] = (await listEffectsForAction({ actionId: action.id })).filter(
      (e) => e.kind === "action.replan",
    );
    expect(settled).toMatchObject({ status: "succeeded", providerRef: `replan-${action.id}` });
    expect(effect.id).toBe(settled!.id);
    const seen = await observed(chatId, core.anna, action.id);
    expect(seen.fresh).toEqual([]);
    expect(seen.pending).toBeNull();
    expect(seen.messages.map((m) => m.parts)).toEqual([
      [{ type: "text", text: expect.stringContaining("The person helping you in this chat") }],
    ]);
    expect(seen.audit).toEqual([
      expect.objectContaining({ errorCode: "handoff", actionId: action.id }),
    ]);
  });
});
