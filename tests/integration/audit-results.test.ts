/**
 * Every audit event carries a `result`; a repeat return answered from the
 * existing request (createdNow: false) has no action and a result that says nothing was
 * written, so GET /api/audit and the /audit page tell it from an executed write; and, as in the
 * source course, `confirmation_required` and `cancelled` events carry the error codes
 * `confirmation_required` and `user_cancelled`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/api/audit/route";
import { nothingWritten } from "@/components/audit/format";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { pendingActionPart } from "../helpers/stream";

const RETURN_7718 = "Create a return request for order 7718. The item arrived damaged.";

type Event = {
  tool: string;
  status: string;
  errorCode: string | null;
  actionId: string | null;
  access: string | null;
  result: unknown;
};

describe("audit events say what they did", () => {
  let events: Event[];
  beforeAll(async () => {
    await useTestDatabase();
    const anna = await Customer.signIn("anna@example.com");
    const staff = await signIn("staff@example.com");
    const propose = async (chat: string) => {
      const part = pendingActionPart((await anna.say(chat, RETURN_7718)).message);
      if (!part) throw new Error("no proposal");
      return part.data.id;
    };
    const chat = await anna.newChat();
    expect((await anna.cancel(await propose(chat))).status).toBe(200);
    expect((await anna.confirm(await propose(chat))).status).toBe(200);
    // The same request again: answered from the return that now exists.
    const again = await anna.say(chat, RETURN_7718);
    expect(pendingActionPart(again.message)).toBeUndefined();
    const res = await call(listAudit, "/api/audit?limit=200", {}, { cookie: staff });
    expect(res.status).toBe(200);
    events = ((await res.json()) as { events: Event[] }).events.filter(
      (e) => e.tool === "create_return_request",
    );
  });

  it("has a result on every event", () => {
    expect(events.length).toBeGreaterThanOrEqual(5);
    for (const e of events) expect(e.result ?? null, `${e.status} event`).not.toBeNull();
  });

  it("tells a repeat from an executed write", () => {
    const executed = events.filter((e) => e.status === "success" && e.actionId !== null);
    const repeat = events.filter((e) => e.status === "success" && e.actionId === null);
    expect(executed).toHaveLength(1);
    expect(repeat).toHaveLength(1);
    expect(repeat[0]!.result).toMatchObject({ written: false, existing: { createdNow: false } });
    expect(nothingWritten(repeat[0]!)).toBe(true);
    expect(nothingWritten(executed[0]!)).toBe(false);
    expect(executed[0]!.result).toMatchObject({ createdNow: true });
  });

  it("marks a confirmed action whose effect already existed as nothing written", () => {
    // confirm.ts asks the tool's business key inside the transaction; when another action got
    // there first, the action is `executed` with that effect and createdNow: false.
    const found = { ...events.find((e) => e.status === "success" && e.actionId !== null)! };
    found.result = { ...(found.result as object), createdNow: false };
    expect(nothingWritten(found)).toBe(true);
  });

  it("codes confirmation_required and cancelled events as the source course does", () => {
    const codes = (status: string) =>
      events.filter((e) => e.status === status).map((e) => e.errorCode);
    expect(codes("confirmation_required")).toEqual([
      "confirmation_required",
      "confirmation_required",
    ]);
    expect(codes("cancelled")).toEqual(["user_cancelled"]);
  });
});
