/**
 * The audit timeline names every actor of every step: the assistant or the customer (an edit)
 * who proposed, the customer who confirmed, the staff member who approved (a step of its own,
 * before what the approval executed) or rejected, the staff member who received the return, and
 * the system that executed on the approval. On both databases.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions";
import { approveAction, rejectAction } from "@/lib/actions/approve";
import { reviseAction } from "@/lib/actions/revise";
import { type Actor, loadActionLife } from "@/lib/audit/timeline";
import { markReturnReceived, staffReturnOfAction } from "@/lib/returns/receive";
import { type Core, newChat, propose } from "./action-core/fixtures";
import { proposeBike, setupApprovalCore } from "./approvals/fixtures";

let core: Core;
beforeEach(async () => {
  core = await setupApprovalCore();
});

/** Each step as [what, who]: the person's email, or the actor's kind and why. */
const who = (a: Actor) =>
  a.kind === "customer" || a.kind === "staff"
    ? `${a.kind} ${a.person?.email ?? a.id}`
    : a.kind === "system"
      ? `system ${a.why}`
      : a.kind;

async function steps(actionId: string) {
  const life = (await loadActionLife({ actionId }))!;
  return life.steps.map((s) => [
    s.afterApproval ? `${s.status} after approval` : s.status,
    who(s.actor),
  ]);
}

describe("the audit timeline names every actor", () => {
  it("an approved return: proposed, confirmed by the customer, approved by staff, executed on it, received by staff", async () => {
    const a = await proposeBike(core);
    await confirmAction({ actionId: a.id, userId: core.anna });
    await approveAction({ actionId: a.id, staffId: core.staff });
    const request = (await staffReturnOfAction(a.id))!;
    await markReturnReceived({ requestId: request.id, staffId: core.staff });
    expect(await steps(a.id)).toEqual([
      ["confirmation_required", "assistant"],
      ["awaiting_approval", "customer anna@example.com"],
      ["approved", "staff staff@example.com"],
      ["success after approval", "system approved"],
      ["received", "staff staff@example.com"],
    ]);
  });

  it("a rejection names the staff member who rejected it", async () => {
    const a = await proposeBike(core);
    await confirmAction({ actionId: a.id, userId: core.anna });
    await rejectAction({ actionId: a.id, staffId: core.staff, reason: "Photos needed." });
    expect(await steps(a.id)).toEqual([
      ["confirmation_required", "assistant"],
      ["awaiting_approval", "customer anna@example.com"],
      ["approval_rejected", "staff staff@example.com"],
    ]);
  });

  it("the customer's edit: the old proposal was replaced by them, the new one proposed by them", async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "other",
    });
    const { action: b } = await reviseAction({
      actionId: a.id,
      userId: core.anna,
      changes: { reason: "damaged" },
    });
    expect(await steps(a.id)).toEqual([
      ["confirmation_required", "assistant"],
      ["superseded", "customer anna@example.com"],
    ]);
    await confirmAction({ actionId: b.id, userId: core.anna });
    expect(await steps(b.id)).toEqual([
      ["revised", "customer anna@example.com"],
      ["success", "customer anna@example.com"],
    ]);
  });
});
