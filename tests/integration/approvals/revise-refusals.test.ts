/**
 * What a customer's edit of a proposal (reviseAction) answers when it cannot be made, each with
 * the contract's code, a message that says what to do, and details a client can act on (the
 * editable fields, the invalid ones, the edits used up, the policy's reason); and what a made
 * edit records: the new proposal's audit event with its chain.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pendingActions } from "@/db/schema";
import { MAX_REVISIONS, reviseAction } from "@/lib/actions/revise";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  propose,
  refusal,
  setupCore,
} from "../action-core/fixtures";

let core: Core;
let actionId: string;
beforeEach(async () => {
  core = await setupCore();
  actionId = (
    await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    })
  ).id;
});

const revised = (changes: Record<string, unknown>, userId = core.anna) =>
  refusal(reviseAction({ actionId, userId, changes }));

const EDITABLE = ["reason", "comment"];

describe("reviseAction refuses", () => {
  it("fields that cannot be changed, naming them and the editable ones", async () => {
    const err = await revised({ orderId: "9307", refundDestination: "x", reason: "defective" });
    expect({
      code: err.code,
      status: err.status,
      message: err.message,
      details: err.details,
    }).toEqual({
      code: "invalid_request",
      status: 400,
      message: "These fields cannot be changed: orderId, refundDestination.",
      details: { editable: EDITABLE },
    });
  });

  it("an edit that names no field", async () => {
    const err = await revised({});
    expect({ code: err.code, message: err.message, details: err.details }).toEqual({
      code: "invalid_request",
      message: "Nothing to change: args names no field.",
      details: { editable: EDITABLE },
    });
  });

  it("a value the tool's schema refuses, with the field's path", async () => {
    const err = await revised({ reason: "because" });
    expect({ code: err.code, message: err.message }).toEqual({
      code: "invalid_request",
      message: "The changed arguments are not valid.",
    });
    const issues = (err.details as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((i) => i.path)).toEqual(["reason"]);
    expect(issues[0]!.message.length).toBeGreaterThan(0);
  });

  it("a chain already edited the most times allowed", async () => {
    await core.db
      .update(pendingActions)
      .set({ revision: MAX_REVISIONS })
      .where(eq(pendingActions.id, actionId));
    const err = await revised({ reason: "defective" });
    expect({
      code: err.code,
      status: err.status,
      message: err.message,
      details: err.details,
    }).toEqual({
      code: "revision_limit",
      status: 409,
      message: `A proposal can be edited at most ${MAX_REVISIONS} times; ask the assistant again.`,
      details: { revisions: MAX_REVISIONS },
    });
  });

  it("an edit the policy no longer allows: conflict, with the policy's reason", async () => {
    // The order's return window closed since the proposal.
    const { orders } = await import("@/db/schema");
    await core.db
      .update(orders)
      .set({ deliveredAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(eq(orders.id, "7718"));
    const err = await revised({ reason: "defective" });
    expect(err.code).toBe("conflict");
    expect(typeof (err.details as { reason?: unknown }).reason).toBe("string");
    expect(err.message.length).toBeGreaterThan(0);
  });

  it("someone else's action, like a missing one; a decided one, like a confirm would", async () => {
    const theirs = await revised({ reason: "defective" }, core.boris);
    expect({ code: theirs.code, message: theirs.message }).toEqual({
      code: "not_found",
      message: "No such action.",
    });
    await core.db
      .update(pendingActions)
      .set({ status: "cancelled" })
      .where(eq(pendingActions.id, actionId));
    const decided = await revised({ reason: "defective" });
    expect({ code: decided.code, details: decided.details }).toEqual({
      code: "already_decided",
      details: { status: "cancelled" },
    });
  });
});

describe("reviseAction on a proposal that can no longer be decided", () => {
  // The state is judged before the edit: a dead proposal answers with what it is, not with what
  // is wrong in the fields, which could no longer be fixed in it anyway.
  it("an expired one answers expired before its fields are judged, and stays expired", async () => {
    const later = new Date(Date.now() + 24 * 3600 * 1000);
    const err = await refusal(
      reviseAction({ actionId, userId: core.anna, changes: { orderId: "9307" }, now: later }),
    );
    expect({ code: err.code, details: err.details }).toEqual({
      code: "expired",
      details: { status: "expired" },
    });
    expect((await actionRow(core.db, actionId)).status).toBe("expired");
  });

  it("a decided one answers as decided even to an edit that names no field", async () => {
    await core.db
      .update(pendingActions)
      .set({ status: "executed" })
      .where(eq(pendingActions.id, actionId));
    const err = await revised({});
    expect({ code: err.code, details: err.details }).toEqual({
      code: "already_decided",
      details: { status: "executed" },
    });
  });
});

describe("a made edit", () => {
  it("records the new proposal's audit event with its chain", async () => {
    const { action, previous } = await reviseAction({
      actionId,
      userId: core.anna,
      changes: { reason: "defective" },
    });
    expect(previous).toMatchObject({ id: actionId, status: "superseded" });
    const [event] = await auditFor(core.db, action.id);
    expect(event).toMatchObject({
      access: "write",
      status: "confirmation_required",
      errorCode: "revised",
      actionId: action.id,
      result: expect.objectContaining({ revisedFrom: actionId, revision: 1 }),
    });
  });
});
