/**
 * Why an action can no longer be confirmed or cancelled: one answer per stored status, each with
 * the contract's code, a message a customer can act on, and the status in its details (the chat
 * card and the terminal client both read them). A missing action and another customer's answer
 * alike, and a claim lost to something unnamed is never "already decided".
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pendingActions } from "@/db/schema";
import { explainUndecidable } from "@/lib/actions/refusals";
import { AppError } from "@/lib/errors";
import { actionRow, type Core, newChat, propose, setupCore } from "./fixtures";

let core: Core;
let actionId: string;
beforeEach(async () => {
  core = await setupCore();
  const chat = await newChat(core.db, core.anna);
  actionId = (await propose(core.anna, chat, { orderId: "7718", reason: "damaged" })).id;
});

const setStatus = (status: string) =>
  core.db
    .update(pendingActions)
    .set({ status: status as never })
    .where(eq(pendingActions.id, actionId));

const CASES = [
  { status: "expired", code: "expired", http: 410, says: /expired.*ask again/i },
  { status: "stale", code: "stale", http: 409, says: /order changed.*ask again/i },
  { status: "superseded", code: "superseded", http: 409, says: /newer proposal replaced/i },
  { status: "awaiting_approval", code: "already_decided", http: 409, says: /team's approval/i },
  { status: "executed", code: "already_decided", http: 409, says: /already executed\./ },
  { status: "cancelled", code: "already_decided", http: 409, says: /already cancelled\./ },
  { status: "failed", code: "already_decided", http: 409, says: /already failed\./ },
  { status: "rejected", code: "already_decided", http: 409, says: /already rejected\./ },
] as const;

describe("explainUndecidable", () => {
  it.each(CASES)(
    "an action $status answers $code ($http), says so and names its status",
    async ({ status, code, http, says }) => {
      await setStatus(status);
      const err = await explainUndecidable({ actionId, userId: core.anna, now: new Date() });
      expect(err).toBeInstanceOf(AppError);
      expect({ code: err.code, status: err.status, details: err.details }).toEqual({
        code,
        status: http,
        details: { status },
      });
      expect(err.message).toMatch(says);
    },
  );

  it("a pending action past its TTL is expired here and answers expired with that status", async () => {
    const late = new Date(Date.now() + 365 * 86_400_000);
    const err = await explainUndecidable({ actionId, userId: core.anna, now: late });
    expect({ code: err.code, details: err.details }).toEqual({
      code: "expired",
      details: { status: "expired" },
    });
    expect((await actionRow(core.db, actionId)).status).toBe("expired");
  });

  it.each(["pending", "executing"])(
    "a claim lost while %s is an internal error, never 'already decided'",
    async (status) => {
      await setStatus(status);
      const err = await explainUndecidable({ actionId, userId: core.anna, now: new Date() });
      expect({ code: err.code, status: err.status, details: err.details }).toEqual({
        code: "internal_error",
        status: 500,
        details: {},
      });
      expect(err.message).toMatch(/could not be decided.*try again/i);
    },
  );

  it("another customer's action answers exactly like a missing one", async () => {
    const theirs = await explainUndecidable({ actionId, userId: core.boris, now: new Date() });
    const missing = await explainUndecidable({
      actionId: "00000000-0000-4000-8000-000000000000",
      userId: core.anna,
      now: new Date(),
    });
    for (const err of [theirs, missing]) {
      expect({ code: err.code, status: err.status, details: err.details }).toEqual({
        code: "not_found",
        status: 404,
        details: {},
      });
      expect(err.message).toBe("No such action.");
    }
  });
});
