/**
 * Why staff cannot approve or reject an action (now): one answer per stored status, with the
 * contract's code, a message staff can act on and the status in its details; a lost claim is an
 * internal error, never "already decided". A reject records who and why. The approvals queue
 * lists only what still waits, oldest confirm first, and honours its limit.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pendingActions } from "@/db/schema";
import { approveAction, listApprovals, rejectAction } from "@/lib/actions/approve";
import {
  actionRow,
  type Core,
  newChat,
  propose,
  refusal,
  setupCore,
} from "../action-core/fixtures";

let core: Core;
beforeEach(async () => {
  core = await setupCore({ APPROVAL_TTL_HOURS: "48", APPROVAL_THRESHOLD_MINOR: "50000" });
});

async function actionIn(status: string, set: Record<string, unknown> = {}) {
  const a = await propose(core.anna, await newChat(core.db, core.anna), {
    orderId: "7718",
    reason: "damaged",
  });
  await core.db
    .update(pendingActions)
    .set({ status: status as never, ...set })
    .where(eq(pendingActions.id, a.id));
  return a.id;
}

const CASES = [
  {
    status: "stale",
    code: "stale",
    http: 409,
    says: /^The order changed since this was proposed\.$/,
  },
  {
    status: "pending",
    code: "conflict",
    http: 409,
    says: /^The customer has not confirmed this action yet\.$/,
  },
  {
    status: "executed",
    code: "already_decided",
    http: 409,
    says: /^This action is already executed\.$/,
  },
  {
    status: "rejected",
    code: "already_decided",
    http: 409,
    says: /^This action is already rejected\.$/,
  },
  {
    status: "superseded",
    code: "already_decided",
    http: 409,
    says: /^This action is already superseded\.$/,
  },
  {
    status: "cancelled",
    code: "already_decided",
    http: 409,
    says: /^This action is already cancelled\.$/,
  },
] as const;

describe("approve and reject refuse what staff cannot decide", () => {
  it.each(CASES)(
    "an action $status: $code ($http), for approve and reject alike",
    async ({ status, code, http, says }) => {
      const id = await actionIn(status);
      // One after the other: started together, the second could be refused before anything
      // awaits it (an unhandled rejection).
      for (const attempt of [
        () => approveAction({ actionId: id, staffId: core.staff }),
        () => rejectAction({ actionId: id, staffId: core.staff, reason: "no" }),
      ]) {
        const err = await refusal(attempt());
        expect({ code: err.code, status: err.status, details: err.details }).toEqual({
          code,
          status: http,
          details: { status },
        });
        expect(err.message).toMatch(says);
      }
      expect((await actionRow(core.db, id)).status).toBe(status);
    },
  );

  it("an approval period that ended: expired (410), and the action is expired from then on", async () => {
    const id = await actionIn("awaiting_approval", { expiresAt: new Date(Date.now() - 1000) });
    const err = await refusal(rejectAction({ actionId: id, staffId: core.staff, reason: "late" }));
    expect({ code: err.code, status: err.status, details: err.details }).toEqual({
      code: "expired",
      status: 410,
      details: { status: "expired" },
    });
    expect(err.message).toBe("The approval period of this action has ended.");
    expect((await actionRow(core.db, id)).status).toBe("expired");
  });

  it("a claim lost while executing is an internal error; a missing action is not_found", async () => {
    const id = await actionIn("executing");
    const err = await refusal(rejectAction({ actionId: id, staffId: core.staff, reason: "no" }));
    expect({ code: err.code, details: err.details }).toEqual({
      code: "internal_error",
      details: {},
    });
    expect(err.message).toMatch(/could not be decided.*try again/i);
    const missing = await refusal(
      rejectAction({
        actionId: "00000000-0000-4000-8000-000000000000",
        staffId: core.staff,
        reason: "x",
      }),
    );
    expect({ code: missing.code, message: missing.message }).toEqual({
      code: "not_found",
      message: "No such action.",
    });
  });

  it("a reject records the staff member, the reason and rejected_by_staff", async () => {
    const id = await actionIn("awaiting_approval", { expiresAt: new Date(Date.now() + 3_600_000) });
    const { action } = await rejectAction({
      actionId: id,
      staffId: core.staff,
      reason: "not covered by the policy",
    });
    expect(action).toMatchObject({ id, status: "rejected" });
    expect(await actionRow(core.db, id)).toMatchObject({
      status: "rejected",
      decidedBy: core.staff,
      approvedBy: core.staff,
      rejectReason: "not covered by the policy",
      errorCode: "rejected_by_staff",
    });
  });
});

describe("four eyes", () => {
  it.each([
    [
      "asked for it (another person confirmed)",
      { userId: "staff" as const, decidedBy: "anna" as const },
    ],
    ["confirmed it (for a customer)", { userId: "anna" as const, decidedBy: "staff" as const }],
  ])("a staff member who %s may not approve it (403 own_action)", async (_who, roles) => {
    const id = await actionIn("awaiting_approval", {
      expiresAt: new Date(Date.now() + 3_600_000),
      userId: core[roles.userId],
      decidedBy: core[roles.decidedBy],
    });
    const err = await refusal(approveAction({ actionId: id, staffId: core.staff }));
    expect({ code: err.code, status: err.status, message: err.message }).toEqual({
      code: "own_action",
      status: 403,
      message:
        "You cannot approve an action you asked for or confirmed: another staff member must.",
    });
    expect(await actionRow(core.db, id)).toMatchObject({
      status: "awaiting_approval",
      approvedBy: null,
    });
  });
});

describe("listApprovals", () => {
  it("lists what waits, oldest confirm first, without the lapsed, up to its limit", async () => {
    const later = new Date(Date.now() + 3_600_000);
    const t = (m: number) => new Date(Date.UTC(2026, 11, 4, 10, m));
    const first = await actionIn("awaiting_approval", { expiresAt: later, confirmedAt: t(1) });
    const second = await actionIn("awaiting_approval", { expiresAt: later, confirmedAt: t(2) });
    await actionIn("awaiting_approval", {
      expiresAt: new Date(Date.now() - 1000),
      confirmedAt: t(0),
    });
    await actionIn("pending");
    const all = await listApprovals();
    expect(all.map((a) => a.action.id)).toEqual([first, second]);
    expect(all[0]).toMatchObject({ userId: core.anna, confirmedAt: t(1) });
    // The first look expired the lapsed one for good.
    expect((await listApprovals({ limit: 1 })).map((a) => a.action.id)).toEqual([first]);
  });
});
