/**
 * Revisions and four-eyes approval in the action core, on both databases: the customer's revision (declared fields only,
 * plan and policy again, a new hash, the old one superseded "revised", at most 5) and four-eyes
 * approval (confirm -> awaiting_approval with nothing executed; staff approve through the same
 * claim, hash and compare-and-set; reject; expiry). The same approvals raced from separate
 * processes are in concurrency.test.ts.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { orders, pendingActions, user } from "@/db/schema";
import { cancelAction, confirmAction, expireDueActions } from "@/lib/actions";
import { approveAction, listApprovals, rejectAction } from "@/lib/actions/approve";
import { MAX_REVISIONS, reviseAction } from "@/lib/actions/revise";
import { approvalsReport } from "@/lib/metrics/approvals";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  orderRow,
  propose,
  refusal,
  returnsFor,
  setupCore,
} from "../action-core/fixtures";
import { proposeBike, setupApprovalCore } from "./fixtures";

const HOUR = 3_600_000;

let core: Core;
beforeEach(async () => {
  core = await setupApprovalCore();
});

const bike = (now?: Date) => proposeBike(core, now);

describe("revise", () => {
  it("stores a new pending action with a new hash; the old one ends superseded, audited 'revised'", async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "other",
    });
    const { action: b } = await reviseAction({
      actionId: a.id,
      userId: core.anna,
      changes: { reason: "damaged", comment: "  cracked   lid " },
    });
    expect(b).toMatchObject({
      status: "pending",
      revision: 1,
      revisionOf: a.id,
      arguments: { orderId: "7718", reason: "damaged", comment: "cracked lid" },
    });
    const [oldRow, newRow] = [await actionRow(core.db, a.id), await actionRow(core.db, b.id)];
    expect(oldRow).toMatchObject({ status: "superseded", errorCode: "revised" });
    expect(newRow.payloadHash).not.toBe(oldRow.payloadHash);
    expect((await auditFor(core.db, a.id)).map((e) => [e.status, e.errorCode])).toEqual([
      ["confirmation_required", "confirmation_required"],
      ["superseded", "revised"],
    ]);
    expect((await auditFor(core.db, b.id)).map((e) => [e.status, e.errorCode])).toEqual([
      ["confirmation_required", "revised"],
    ]);
    // The revised one confirms with exactly its stored (edited) arguments.
    await confirmAction({ actionId: b.id, userId: core.anna });
    expect(await returnsFor(core.db, "7718")).toEqual([
      expect.objectContaining({ reason: "damaged", comment: "cracked lid", actionId: b.id }),
    ]);
  });

  it("refuses the order and undeclared fields (400), another customer (404), a decided action (409)", async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "other",
    });
    for (const changes of [
      { orderId: "9307" },
      { reason: "damaged", orderId: "9307" },
      { amount: 1 },
      {},
    ])
      expect(
        (await refusal(reviseAction({ actionId: a.id, userId: core.anna, changes }))).code,
      ).toBe("invalid_request");
    // The tool's schema: a reason it does not know.
    expect(
      (
        await refusal(
          reviseAction({ actionId: a.id, userId: core.anna, changes: { reason: "bored" } }),
        )
      ).code,
    ).toBe("invalid_request");
    expect(
      (
        await refusal(
          reviseAction({ actionId: a.id, userId: core.boris, changes: { reason: "damaged" } }),
        )
      ).code,
    ).toBe("not_found");
    expect((await actionRow(core.db, a.id)).status).toBe("pending");
    await cancelAction({ actionId: a.id, userId: core.anna });
    expect(
      (
        await refusal(
          reviseAction({ actionId: a.id, userId: core.anna, changes: { reason: "damaged" } }),
        )
      ).code,
    ).toBe("already_decided");
  });

  it("runs the policy again: an order that changed meanwhile is refused, nothing is stored", async () => {
    const t0 = new Date();
    const a = await propose(
      core.anna,
      await newChat(core.db, core.anna, t0),
      {
        orderId: "7718",
        reason: "other",
      },
      { now: t0 },
    );
    await core.db.update(orders).set({ status: "in_transit" }).where(eq(orders.id, "7718"));
    const e = await refusal(
      reviseAction({ actionId: a.id, userId: core.anna, changes: { reason: "damaged" }, now: t0 }),
    );
    expect(e.code).toBe("conflict");
    expect((await actionRow(core.db, a.id)).status).toBe("pending");
  });

  it(`allows at most ${MAX_REVISIONS} revisions per chain`, async () => {
    let id = (
      await propose(core.anna, await newChat(core.db, core.anna), {
        orderId: "7718",
        reason: "other",
      })
    ).id;
    for (let i = 1; i <= MAX_REVISIONS; i++) {
      const { action } = await reviseAction({
        actionId: id,
        userId: core.anna,
        changes: { comment: `edit ${i}` },
      });
      expect(action.revision).toBe(i);
      id = action.id;
    }
    const e = await refusal(
      reviseAction({ actionId: id, userId: core.anna, changes: { comment: "x" } }),
    );
    expect(e.code).toBe("revision_limit");
    expect((await actionRow(core.db, id)).status).toBe("pending");
  });
});

describe("four eyes", () => {
  it("a refund above the threshold waits for staff on confirm; nothing is executed", async () => {
    const a = await bike();
    expect(a.requiresApproval).toBe(true);
    const small = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    expect(small.requiresApproval).toBe(false);
    const out = await confirmAction({ actionId: a.id, userId: core.anna });
    expect(out).toMatchObject({
      result: null,
      effects: [],
      action: { status: "awaiting_approval" },
    });
    expect(await returnsFor(core.db, "2890")).toEqual([]);
    const row = await actionRow(core.db, a.id);
    expect(row.confirmedAt).not.toBeNull();
    expect(row.expiresAt.getTime() - row.confirmedAt!.getTime()).toBe(48 * HOUR);
    expect((await auditFor(core.db, a.id)).map((e) => e.status)).toEqual([
      "confirmation_required",
      "awaiting_approval",
    ]);
    // The customer cannot push it through by confirming again.
    expect((await refusal(confirmAction({ actionId: a.id, userId: core.anna }))).code).toBe(
      "already_decided",
    );
    expect((await listApprovals()).map((i) => i.action.id)).toEqual([a.id]);
  });

  it("staff approval executes exactly the stored arguments, recording the approver", async () => {
    const a = await bike();
    await confirmAction({ actionId: a.id, userId: core.anna });
    const out = await approveAction({ actionId: a.id, staffId: core.staff });
    expect(out.action.status).toBe("executed");
    // The customer confirmed; the approver is the one who decided it ran.
    expect(await actionRow(core.db, a.id)).toMatchObject({
      decidedBy: core.staff,
      approvedBy: core.staff,
    });
    expect((await auditFor(core.db, a.id)).at(-1)).toMatchObject({
      status: "success",
      userId: core.anna,
      actorId: core.staff,
      errorCode: null,
    });
    expect(out.result?.createdNow).toBe(true);
    expect(await returnsFor(core.db, "2890")).toEqual([
      expect.objectContaining({ reason: "damaged", actionId: a.id, refundAmountMinor: 129000 }),
    ]);
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "executed",
      approvedBy: core.staff,
      decidedBy: core.staff,
    });
    const events = await auditFor(core.db, a.id);
    expect(events.at(-1)).toMatchObject({
      status: "success",
      actorId: core.staff,
      userId: core.anna,
    });
    // A second approval, or a pending (unconfirmed) one, is refused.
    expect((await refusal(approveAction({ actionId: a.id, staffId: core.staff }))).code).toBe(
      "already_decided",
    );
    const b = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    expect((await refusal(approveAction({ actionId: b.id, staffId: core.staff }))).code).toBe(
      "conflict",
    );
  });

  it("stored arguments tampered with after the confirm fail the hash check; nothing is written", async () => {
    const a = await bike();
    await confirmAction({ actionId: a.id, userId: core.anna });
    await core.db
      .update(pendingActions)
      .set({ arguments: { orderId: "2890", reason: "other", comment: null } })
      .where(eq(pendingActions.id, a.id));
    expect((await refusal(approveAction({ actionId: a.id, staffId: core.staff }))).code).toBe(
      "internal_error",
    );
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "failed",
      errorCode: "payload_hash_mismatch",
      decidedBy: core.staff,
      approvedBy: core.staff,
    });
    expect((await auditFor(core.db, a.id)).at(-1)).toMatchObject({
      status: "technical_error",
      actorId: core.staff,
      errorCode: "payload_hash_mismatch",
    });
    expect(await returnsFor(core.db, "2890")).toEqual([]);
  });

  it("a target that changed while waiting ends stale", async () => {
    const a = await bike();
    await confirmAction({ actionId: a.id, userId: core.anna });
    const { version } = await orderRow(core.db, "2890");
    await core.db
      .update(orders)
      .set({ version: version + 1 })
      .where(eq(orders.id, "2890"));
    expect((await refusal(approveAction({ actionId: a.id, staffId: core.staff }))).code).toBe(
      "stale",
    );
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "stale",
      approvedBy: core.staff,
    });
    expect(await returnsFor(core.db, "2890")).toEqual([]);
  });

  it("reject records the reason and the staff member; nothing is executed", async () => {
    const a = await bike();
    await confirmAction({ actionId: a.id, userId: core.anna });
    const { action } = await rejectAction({
      actionId: a.id,
      staffId: core.staff,
      reason: "Photos needed.",
    });
    expect(action).toMatchObject({ status: "rejected", rejectReason: "Photos needed." });
    expect((await auditFor(core.db, a.id)).at(-1)).toMatchObject({
      status: "approval_rejected",
      actorId: core.staff,
      errorCode: "rejected_by_staff",
      result: { written: false, status: "rejected", reason: "Photos needed." },
    });
    expect((await refusal(approveAction({ actionId: a.id, staffId: core.staff }))).code).toBe(
      "already_decided",
    );
    expect(await returnsFor(core.db, "2890")).toEqual([]);
  });

  it("an approval waits at most APPROVAL_TTL_HOURS, then the sweep expires it", async () => {
    const t0 = new Date();
    const a = await bike(t0);
    await confirmAction({ actionId: a.id, userId: core.anna, now: t0 });
    expect(await expireDueActions(new Date(t0.getTime() + 47 * HOUR))).toBe(0);
    expect(await expireDueActions(new Date(t0.getTime() + 48 * HOUR))).toBe(1);
    expect(await actionRow(core.db, a.id)).toMatchObject({ status: "expired" });
    expect((await auditFor(core.db, a.id)).at(-1)).toMatchObject({
      status: "expired",
      actorId: null,
      errorCode: null,
      result: { written: false, status: "expired" },
    });
    expect((await refusal(approveAction({ actionId: a.id, staffId: core.staff }))).code).toBe(
      "expired",
    );
  });

  it("metrics: revisions, approval and rejection rates, time to approve", async () => {
    const t0 = new Date();
    const day = Math.floor(t0.getTime() / 86_400_000);
    const a = await bike(t0);
    const { action: edited } = await reviseAction({
      actionId: a.id,
      userId: core.anna,
      changes: { comment: "scratched frame" },
      now: t0,
    });
    await confirmAction({ actionId: edited.id, userId: core.anna, now: t0 });
    await rejectAction({
      actionId: edited.id,
      staffId: core.staff,
      reason: "Photos needed.",
      now: t0,
    });
    const b = await bike(t0);
    await confirmAction({ actionId: b.id, userId: core.anna, now: t0 });
    await approveAction({
      actionId: b.id,
      staffId: core.staff,
      now: new Date(t0.getTime() + 90_000),
    });
    expect(await approvalsReport({ fromDay: day, toDay: day + 1 })).toEqual({
      revisions: 1,
      awaiting: 0,
      approved: 1,
      rejected: 1,
      expired: 0,
      approvalRate: 0.5,
      rejectionRate: 0.5,
      timeToApproveMs: 90_000,
    });
  });

  it("a staff member cannot approve their own request (403 own_action); another staff member can", async () => {
    // A staff member who is also a customer of the shop: the bike is theirs.
    await core.db.update(orders).set({ userId: core.staff }).where(eq(orders.id, "2890"));
    const a = await propose(core.staff, await newChat(core.db, core.staff), {
      orderId: "2890",
      reason: "damaged",
    });
    expect(a.requiresApproval).toBe(true);
    expect((await confirmAction({ actionId: a.id, userId: core.staff })).action.status).toBe(
      "awaiting_approval",
    );
    const own = await refusal(approveAction({ actionId: a.id, staffId: core.staff }));
    expect([own.code, own.status]).toEqual(["own_action", 403]);
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "awaiting_approval",
      approvedBy: null,
    });
    expect(await returnsFor(core.db, "2890")).toEqual([]);
    const now = new Date();
    await core.db.insert(user).values({
      id: "second-staff",
      name: "Sam Lee",
      email: "sam@example.com",
      role: "staff",
      createdAt: now,
      updatedAt: now,
    });
    const out = await approveAction({ actionId: a.id, staffId: "second-staff" });
    expect(out.action.status).toBe("executed");
    expect(await returnsFor(core.db, "2890")).toHaveLength(1);
  });

  it("a refund exactly at APPROVAL_THRESHOLD_MINOR needs no approval; one minor unit more does", async () => {
    const amount = ((await bike()).plan as { refund: { amount: number } }).refund.amount;
    core = await setupCore({ APPROVAL_THRESHOLD_MINOR: String(amount) });
    const at = await bike();
    expect(at.requiresApproval).toBe(false);
    expect((await confirmAction({ actionId: at.id, userId: core.anna })).action.status).toBe(
      "executed",
    );
    core = await setupCore({ APPROVAL_THRESHOLD_MINOR: String(amount - 1) });
    const above = await bike();
    expect(above.requiresApproval).toBe(true);
    expect((await confirmAction({ actionId: above.id, userId: core.anna })).action.status).toBe(
      "awaiting_approval",
    );
  });

  it("APPROVAL_THRESHOLD_MINOR=0 turns approval off", async () => {
    core = await setupCore({ APPROVAL_THRESHOLD_MINOR: "0" });
    const a = await bike();
    expect(a.requiresApproval).toBe(false);
    expect((await confirmAction({ actionId: a.id, userId: core.anna })).action.status).toBe(
      "executed",
    );
  });
});
