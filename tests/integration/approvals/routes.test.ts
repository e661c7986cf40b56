/**
 * Revisions and four-eyes approval through the real route handlers, on both databases: the customer's revise (owner only,
 * declared fields only, the transcript shows it), the card's approval notice and the chat freed
 * while staff decide, the staff queue and decisions, and a customer who can never approve (403).
 * Every answer is also checked against the OpenAPI document (tests/helpers/http.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as reviseRoute } from "@/app/api/actions/[id]/revise/route";
import { POST as approveRoute } from "@/app/api/staff/actions/[id]/approve/route";
import { POST as rejectRoute } from "@/app/api/staff/actions/[id]/reject/route";
import { GET as approvalsRoute } from "@/app/api/staff/approvals/route";
import { Customer } from "../../helpers/chat";
import { useTestDatabase } from "../../helpers/db";
import { call, signIn } from "../../helpers/http";
import { pendingActionPart } from "../../helpers/stream";

describe("people in the loop through the routes", () => {
  let anna: Customer;
  let boris: Customer;
  let staff: string;

  beforeAll(async () => {
    await useTestDatabase({ env: { APPROVAL_THRESHOLD_MINOR: "50000" } });
    anna = await Customer.signIn("anna@example.com");
    boris = await Customer.signIn("boris@example.com");
    staff = await signIn("staff@example.com");
  });

  const revise = (id: string, body: unknown, cookie = anna.cookie) =>
    call(reviseRoute, `/api/actions/${id}/revise`, { id }, { cookie, body });
  const approve = (id: string, cookie = staff) =>
    call(approveRoute, `/api/staff/actions/${id}/approve`, { id }, { cookie, method: "POST" });
  const reject = (id: string, body: unknown, cookie = staff) =>
    call(rejectRoute, `/api/staff/actions/${id}/reject`, { id }, { cookie, body });
  const queue = (cookie = staff) => call(approvalsRoute, "/api/staff/approvals", {}, { cookie });

  async function proposal(text: string) {
    const chatId = await anna.newChat();
    const turn = await anna.say(chatId, text);
    const part = pendingActionPart(turn.message);
    if (!part) throw new Error(`no card for: ${text}: ${turn.text}`);
    return {
      chatId,
      action: part.data as { id: string; requiresApproval?: boolean; edit?: unknown },
    };
  }

  it("revise: owner only, declared fields only, a new pending action the transcript shows", async () => {
    const { chatId, action } = await proposal("I want to return order 7718, it arrived damaged");
    expect(action.edit).toMatchObject({
      fields: [
        expect.objectContaining({
          name: "reason",
          options: expect.arrayContaining([expect.objectContaining({ value: "other" })]),
        }),
        expect.objectContaining({ name: "comment", options: null }),
      ],
    });
    expect((await revise(action.id, { args: { reason: "other" } }, boris.cookie)).status).toBe(404);
    for (const body of [
      { args: { orderId: "9307" } },
      { args: { reason: "other", amount: 5 } },
      { args: {} },
      { reason: "other" },
      {},
    ]) {
      const res = await revise(action.id, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
    const res = await revise(action.id, { args: { reason: "other", comment: "Wrong colour" } });
    expect(res.status).toBe(200);
    const { pendingAction } = await res.json();
    expect(pendingAction).toMatchObject({
      status: "pending",
      revision: 1,
      revisionOf: action.id,
      arguments: { orderId: "7718", reason: "other", comment: "Wrong colour" },
    });
    const view = await (await anna.getChat(chatId)).json();
    expect(view.pendingAction.id).toBe(pendingAction.id);
    const last = view.messages.at(-1);
    expect(last.parts.map((p: { type: string }) => p.type)).toEqual([
      "text",
      "data-pending-action",
    ]);
    expect(last.parts[0].text).toContain("edited the proposal");
    const cards = view.messages.flatMap(
      (m: { parts: { type: string; data?: { id: string; status: string } }[] }) =>
        m.parts
          .filter((p) => p.type === "data-pending-action")
          .map((p) => [p.data!.id, p.data!.status]),
    );
    expect(cards).toEqual([
      [action.id, "superseded"],
      [pendingAction.id, "pending"],
    ]);
    expect((await revise(action.id, { args: { reason: "damaged" } })).status).toBe(409);
    await anna.cancel(pendingAction.id);
  });

  it("revise of the recipient: an address change proposed without a name keeps the order's recipient, and the customer can name another one, or go back to it", async () => {
    const { action } = await proposal(
      "Please change the delivery address of order 3004 to 12 Rue de Rivoli, 75001 Paris, France",
    );
    const rivoli = {
      line1: "12 Rue de Rivoli",
      line2: null,
      postalCode: "75001",
      city: "Paris",
      country: "FR",
    };
    const named = await revise(action.id, {
      args: { address: { ...rivoli, name: "Maria Schmidt" } },
    });
    expect(named.status).toBe(200);
    const first = (await named.json()).pendingAction;
    expect(first).toMatchObject({
      status: "pending",
      revisionOf: action.id,
      arguments: { orderId: "3004", address: { ...rivoli, name: "Maria Schmidt" } },
      plan: { to: { ...rivoli, name: "Maria Schmidt" } },
    });
    // Without a name again, the recipient is the order's own once more (as the model proposed it).
    const back = await revise(first.id, { args: { address: { ...rivoli, name: null } } });
    expect(back.status).toBe(200);
    const second = (await back.json()).pendingAction;
    expect(second.plan.to).toEqual({ ...rivoli, name: second.plan.from.name });
    expect(second.plan.to.name).not.toBe("Maria Schmidt");
    // The order stays what it is: a revision changes how, never which order.
    const other = await revise(second.id, { args: { orderId: "1187" } });
    expect(other.status).toBe(400);
    await anna.cancel(second.id);
  });

  it("above the threshold: the card says so, Confirm waits for staff and frees the chat; staff reject or approve; a customer cannot", async () => {
    const first = await proposal("I want to return order 2890, it arrived damaged");
    expect(first.action.requiresApproval).toBe(true);
    const res = await anna.confirm(first.action.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      result: null,
      action: { status: "awaiting_approval" },
      audit: { status: "awaiting_approval" },
    });
    const view = await (await anna.getChat(first.chatId)).json();
    expect(view.pendingAction).toBeNull();
    expect(view.messages.at(-1).parts.at(-1).text).toContain("our team approves");
    // The chat is free: another message is answered, not refused with action_pending.
    expect((await anna.post(first.chatId, { text: "Thanks!" })).status).toBe(200);

    // A customer can never approve, reject or read the queue.
    expect((await approve(first.action.id, anna.cookie)).status).toBe(403);
    expect((await reject(first.action.id, { reason: "no" }, anna.cookie)).status).toBe(403);
    expect((await queue(anna.cookie)).status).toBe(403);

    const q = await (await queue()).json();
    expect(q.approvals).toEqual([
      expect.objectContaining({
        action: expect.objectContaining({ id: first.action.id }),
        customer: expect.objectContaining({ email: "anna@example.com" }),
      }),
    ]);
    expect((await reject(first.action.id, { reason: "   " })).status).toBe(400);
    const rejected = await reject(first.action.id, { reason: "Please send photos of the damage." });
    expect(rejected.status).toBe(200);
    expect((await rejected.json()).action).toMatchObject({
      status: "rejected",
      rejectReason: "Please send photos of the damage.",
    });
    const told = await (await anna.getChat(first.chatId)).json();
    const note = told.messages.find((m: { id: string }) => m.id === `outcome-${first.action.id}`);
    expect(note.parts[1].text).toContain("Please send photos of the damage.");

    // Asked again, confirmed again, approved: executed once, noted in the chat.
    const second = await proposal("I want to return order 2890, it arrived damaged");
    expect((await anna.confirm(second.action.id)).status).toBe(200);
    const ok = await approve(second.action.id);
    expect(ok.status).toBe(200);
    expect((await ok.json()).action.status).toBe("executed");
    expect((await approve(second.action.id)).status).toBe(409);
    const after = await (await anna.getChat(second.chatId)).json();
    const outcome = after.messages.find(
      (m: { id: string }) => m.id === `outcome-${second.action.id}`,
    );
    expect(outcome.parts[0].data.status).toBe("executed");
  });
});
