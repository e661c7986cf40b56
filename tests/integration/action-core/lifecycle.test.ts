/**
 * Time and crashes: proposals expire (on read, on confirm and by the sweep), and start-up
 * recovery leaves no action stuck in `executing`.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pendingActions, returnRequests } from "@/db/schema";
import {
  cancelAction,
  confirmAction,
  expireDueActions,
  getActionForUser,
  getPendingActionForChat,
  recoverInterruptedActions,
  supersedePendingInChat,
} from "@/lib/actions";
import {
  onApprovalExpired,
  supersedePendingForUser,
  withdrawProposal,
} from "@/lib/actions/lifecycle";
import { startActionCore } from "@/lib/actions/sweeper";
import { expireIfDue, transition } from "@/lib/actions/transition";
import { AppError } from "@/lib/errors";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  propose,
  returnsFor,
  setupCore,
} from "./fixtures";

const TTL_MS = 120_000;
let core: Core;
let chat: string;
beforeEach(async () => {
  core = await setupCore({ PENDING_ACTION_TTL_SECONDS: String(TTL_MS / 1000) });
  chat = await newChat(core.db, core.anna);
});

const statuses = async (id: string) => (await auditFor(core.db, id)).map((e) => e.status);
const codeOf = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof AppError) return [e.code, e.status];
  }
  return null;
};

describe("expiry", () => {
  it("confirming after the TTL answers 410 expired, once audited, nothing created", async () => {
    const t0 = new Date();
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    const late = new Date(t0.getTime() + TTL_MS + 1);
    expect(
      await codeOf(
        async () => await confirmAction({ actionId: action.id, userId: core.anna, now: late }),
      ),
    ).toEqual(["expired", 410]);
    expect(
      await codeOf(
        async () => await confirmAction({ actionId: action.id, userId: core.anna, now: late }),
      ),
    ).toEqual(["expired", 410]);
    expect(
      await codeOf(
        async () => await cancelAction({ actionId: action.id, userId: core.anna, now: late }),
      ),
    ).toEqual(["expired", 410]);
    // Decided by the clock at the deadline, whenever it was noticed.
    expect(await getActionForUser({ actionId: action.id, userId: core.anna })).toMatchObject({
      status: "expired",
      decidedAt: action.expiresAt,
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "expired"]);
    expect(await returnsFor(core.db, "7718")).toEqual([]);
  });

  it.each([
    ["at the deadline", 0],
    ["one millisecond after it", 1],
  ])("a Cancel that is the first to notice the TTL, %s, answers 410 expired", async (_when, ms) => {
    const t0 = new Date();
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    const at = new Date(new Date(action.expiresAt).getTime() + ms);
    expect(
      await codeOf(
        async () => await cancelAction({ actionId: action.id, userId: core.anna, now: at }),
      ),
    ).toEqual(["expired", 410]);
    expect(await getActionForUser({ actionId: action.id, userId: core.anna })).toMatchObject({
      status: "expired",
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "expired"]);
  });

  it("one millisecond before the deadline the action still confirms", async () => {
    const t0 = new Date();
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    const { result } = await confirmAction({
      actionId: action.id,
      userId: core.anna,
      now: new Date(t0.getTime() + TTL_MS - 1),
    });
    expect(result?.createdNow).toBe(true);
  });

  it("reading the chat's pending action expires it lazily", async () => {
    const t0 = new Date();
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    expect(
      (
        await getPendingActionForChat({
          chatId: chat,
          userId: core.anna,
          now: new Date(t0.getTime() + 1000),
        })
      )?.id,
    ).toBe(action.id);
    expect(
      await getPendingActionForChat({
        chatId: chat,
        userId: core.anna,
        now: new Date(t0.getTime() + TTL_MS),
      }),
    ).toBeNull();
    expect((await actionRow(core.db, action.id)).status).toBe("expired");
    expect(await statuses(action.id)).toEqual(["confirmation_required", "expired"]);
  });

  it("the sweep expires only actions past their TTL, each audited once", async () => {
    const t0 = new Date();
    const old = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" }, { now: t0 });
    const borisChat = await newChat(core.db, core.boris);
    const fresh = await propose(
      core.boris,
      borisChat,
      { orderId: "4410", reason: "defective" },
      { now: new Date(t0.getTime() + 60_000) },
    );
    const sweepAt = new Date(t0.getTime() + TTL_MS + 1);
    expect(await expireDueActions(sweepAt)).toBe(1);
    expect(await expireDueActions(sweepAt)).toBe(0);
    // Decided by the system (the sweep), not by a person.
    expect(await actionRow(core.db, old.id)).toMatchObject({
      status: "expired",
      decidedBy: "system",
    });
    expect((await actionRow(core.db, fresh.id)).status).toBe("pending");
    expect(await statuses(old.id)).toEqual(["confirmation_required", "expired"]);
  });
});

describe("expireIfDue on an action that already ended", () => {
  it("an executed or cancelled action looked at long after its TTL stays as it ended, nothing audited", async () => {
    const t0 = new Date();
    const later = new Date(t0.getTime() + 10 * TTL_MS);
    const done = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    await confirmAction({ actionId: done.id, userId: core.anna, now: t0 });
    const otherChat = await newChat(core.db, core.boris);
    const cancelled = await propose(
      core.boris,
      otherChat,
      { orderId: "4410", reason: "defective" },
      { now: t0 },
    );
    await cancelAction({ actionId: cancelled.id, userId: core.boris, now: t0 });
    for (const [id, status] of [
      [done.id, "executed"],
      [cancelled.id, "cancelled"],
    ] as const) {
      const before = await statuses(id);
      const row = await expireIfDue(await actionRow(core.db, id), later);
      expect(row.status).toBe(status);
      expect((await actionRow(core.db, id)).status).toBe(status);
      expect(await statuses(id)).toEqual(before);
    }
  });

  it("a pending one is expired at its deadline by the system, audited once", async () => {
    const t0 = new Date();
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: t0 },
    );
    const row = await expireIfDue(
      await actionRow(core.db, action.id),
      new Date(t0.getTime() + 3 * TTL_MS),
    );
    expect(row).toMatchObject({ status: "expired", decidedBy: "system" });
    expect(row.decidedAt?.getTime()).toBe(row.expiresAt.getTime());
    expect(await statuses(action.id)).toEqual(["confirmation_required", "expired"]);
  });
});

describe("superseding and the sweep's listeners", () => {
  it("a handoff supersedes only that chat's pending proposal, audited with its code; a new chat the other chats'", async () => {
    const chatA = chat;
    const chatB = await newChat(core.db, core.anna);
    const chatC = await newChat(core.db, core.anna);
    const a = await propose(core.anna, chatA, { orderId: "7718", reason: "damaged" });
    const b = await propose(core.anna, chatB, { orderId: "9307", reason: "damaged" });
    const c = await propose(core.anna, chatC, { orderId: "2890", reason: "damaged" });
    expect(
      await supersedePendingInChat({ userId: core.anna, chatId: chatA, errorCode: "handoff" }),
    ).toBe(1);
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "superseded",
      decidedBy: "system",
      errorCode: "handoff",
    });
    expect((await actionRow(core.db, b.id)).status).toBe("pending");
    // Again: nothing left to supersede there.
    expect(
      await supersedePendingInChat({ userId: core.anna, chatId: chatA, errorCode: "handoff" }),
    ).toBe(0);
    // Another customer's call names no chat of Anna's.
    expect(
      await supersedePendingInChat({ userId: core.boris, chatId: chatB, errorCode: "handoff" }),
    ).toBe(0);
    expect(await supersedePendingForUser({ userId: core.anna, exceptChatId: chatC })).toBe(1);
    expect(await actionRow(core.db, b.id)).toMatchObject({
      status: "superseded",
      decidedBy: "system",
    });
    expect((await actionRow(core.db, c.id)).status).toBe("pending");
  });

  it("a proposal whose turn then failed is withdrawn: superseded by the system as turn_failed, once; an ended or unknown one is left", async () => {
    const at = new Date(Date.now() + 1_000);
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    expect(await withdrawProposal({ actionId: action.id, now: at })).toBe(true);
    expect(await actionRow(core.db, action.id)).toMatchObject({
      status: "superseded",
      decidedBy: "system",
      decidedAt: at,
      errorCode: "turn_failed",
    });
    // The chat is free again: no card left pending in it.
    expect(await getPendingActionForChat({ userId: core.anna, chatId: chat })).toBeNull();
    expect(await statuses(action.id)).toEqual(["confirmation_required", "superseded"]);
    // Twice: it already ended, so nothing changes and nothing more is audited.
    expect(await withdrawProposal({ actionId: action.id })).toBe(false);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "superseded"]);
    // A confirmed action is never withdrawn by a failed turn.
    const other = await newChat(core.db, core.anna);
    const kept = await propose(core.anna, other, { orderId: "9307", reason: "damaged" });
    await confirmAction({ actionId: kept.id, userId: core.anna });
    const before = (await actionRow(core.db, kept.id)).status;
    expect(await withdrawProposal({ actionId: kept.id })).toBe(false);
    expect((await actionRow(core.db, kept.id)).status).toBe(before);
    expect(await withdrawProposal({ actionId: randomUUID() })).toBe(false);
  });

  it("the sweep tells the listener of each approval wait it ended, and of nothing else", async () => {
    const heard: string[] = [];
    const g = globalThis as {
      __returnsDeskApprovalExpired?: Parameters<typeof onApprovalExpired>[0];
    };
    const before = g.__returnsDeskApprovalExpired;
    onApprovalExpired(async (action) => {
      heard.push(`${action.id}:${action.status}`);
    });
    try {
      const t0 = new Date();
      const waiting = await propose(
        core.anna,
        chat,
        { orderId: "7718", reason: "damaged" },
        { now: t0 },
      );
      const plain = await propose(
        core.anna,
        await newChat(core.db, core.anna),
        { orderId: "9307", reason: "damaged" },
        { now: t0 },
      );
      await core.db
        .update(pendingActions)
        .set({ status: "awaiting_approval" })
        .where(eq(pendingActions.id, waiting.id));
      expect(await expireDueActions(new Date(t0.getTime() + 3 * TTL_MS))).toBe(2);
      expect(heard).toEqual([`${waiting.id}:expired`]);
      expect((await actionRow(core.db, plain.id)).status).toBe("expired");
    } finally {
      g.__returnsDeskApprovalExpired = before;
    }
  });
});

describe("transition() on a row that already left its state", () => {
  it("a cancel racing the expiry sweep: the sweep's transition returns nothing and audits nothing", async () => {
    const now = new Date();
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" }, { now });
    // The sweep read the row while it was still pending...
    const seenBySweep = await actionRow(core.db, action.id);
    // ...and the customer's cancel landed first.
    await cancelAction({ actionId: action.id, userId: core.anna, now });
    const late = new Date(now.getTime() + TTL_MS + 1);
    const result = await transition(seenBySweep, {
      from: "pending",
      to: "expired",
      now: late,
      decidedBy: "system",
      onlyIfExpired: true,
    });
    expect(result).toBeNull();
    expect((await actionRow(core.db, action.id)).status).toBe("cancelled");
    expect(await statuses(action.id)).toEqual(["confirmation_required", "cancelled"]);
  });
});

describe("start-up recovery", () => {
  /** An `executing` row, as only a crash outside the confirm transaction could leave it. */
  async function stuckAction(orderId: string) {
    const action = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId,
      reason: "damaged",
    });
    await core.db
      .update(pendingActions)
      .set({ status: "executing" })
      .where(eq(pendingActions.id, action.id));
    return action;
  }

  it("an executing action without its effect becomes failed; one whose effect committed becomes executed", async () => {
    const noEffect = await stuckAction("7718");
    const withEffect = await stuckAction("9307");
    const requestId = randomUUID();
    await core.db.insert(returnRequests).values({
      id: requestId,
      orderId: "9307",
      userId: core.anna,
      reason: "damaged",
      refundAmountMinor: 3490,
      refundCurrency: "EUR",
      refundDestination: "PayPal (anna@example.com)",
      actionId: withEffect.id,
      operationId: withEffect.id,
    });

    expect(await recoverInterruptedActions()).toEqual({ executed: 1, failed: 1 });
    expect(await actionRow(core.db, noEffect.id)).toMatchObject({
      status: "failed",
      decidedBy: "system",
      errorCode: "interrupted",
    });
    expect(await statuses(noEffect.id)).toEqual(["confirmation_required", "technical_error"]);
    expect(await actionRow(core.db, withEffect.id)).toMatchObject({
      status: "executed",
      decidedBy: "system",
      result: { requestId, orderId: "9307" },
    });
    expect(await statuses(withEffect.id)).toEqual(["confirmation_required", "success"]);
    expect(await recoverInterruptedActions()).toEqual({ executed: 0, failed: 0 });
  });

  it("startActionCore recovers, expires what is due, and starts one periodic sweep however often it is called", async () => {
    const g = globalThis as { __returnsDeskSweep?: NodeJS.Timeout };
    clearInterval(g.__returnsDeskSweep);
    delete g.__returnsDeskSweep;
    try {
      const stuck = await stuckAction("7718");
      const chat = await newChat(core.db, core.anna);
      const old = await propose(
        core.anna,
        chat,
        { orderId: "9307", reason: "damaged" },
        {
          now: new Date(Date.now() - TTL_MS - 1000),
        },
      );
      await startActionCore();
      expect((await actionRow(core.db, stuck.id)).status).toBe("failed");
      expect((await actionRow(core.db, old.id)).status).toBe("expired");
      // Read through a function: TypeScript would keep the value it saw deleted above.
      const current = () => g.__returnsDeskSweep;
      const sweep = current();
      expect(sweep).toBeDefined();
      // Never what keeps the process alive.
      expect(sweep?.hasRef()).toBe(false);
      await startActionCore();
      expect(current()).toBe(sweep);
    } finally {
      clearInterval(g.__returnsDeskSweep);
      delete g.__returnsDeskSweep;
    }
  });
});
