/**
 * The rate limits on people's decisions, through the real route handlers on SQLite and
 * PostgreSQL: a customer's edits of proposals (10 a minute, valid or not) and staff decisions
 * (approve, reject, receive, retry, resolve and release share 60 a minute per staff member).
 * Beyond them: 429 `rate_limited` with Retry-After, and nothing changes.
 */
import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as reviseRoute } from "@/app/api/actions/[id]/revise/route";
import { POST as approveRoute } from "@/app/api/staff/actions/[id]/approve/route";
import { POST as rejectRoute } from "@/app/api/staff/actions/[id]/reject/route";
import { POST as releaseRoute } from "@/app/api/staff/chats/[id]/release/route";
import { POST as resolveRoute } from "@/app/api/staff/effects/[id]/resolve/route";
import { POST as retryRoute } from "@/app/api/staff/effects/[id]/retry/route";
import { POST as receiveRoute } from "@/app/api/staff/returns/[requestId]/receive/route";
import { one } from "@/db";
import { pendingActions } from "@/db/schema";
import { REVISIONS_PER_MINUTE, STAFF_DECISIONS_PER_MINUTE } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { call, signIn } from "../helpers/http";
import { actionRow, type Core, newChat, propose, setupCore } from "./action-core/fixtures";

let core: Core;
let anna: Customer;
let staff: string;

beforeAll(async () => {
  core = await setupCore({ APPROVAL_THRESHOLD_MINOR: "50000" });
  anna = await Customer.signIn("anna@example.com");
  staff = await signIn("staff@example.com");
});

async function expectLimited(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  const body = (await res.json()) as {
    error: { code: string; retryAfterSeconds?: number };
  };
  expect(body.error.code).toBe("rate_limited");
  expect(body.error.retryAfterSeconds).toBe(Number(res.headers.get("retry-after")));
}

const actionCount = async () => one(await core.db.select({ n: count() }).from(pendingActions)).n;

describe("a customer's edits", () => {
  it(`${REVISIONS_PER_MINUTE} a minute, refused ones included; the next is 429 and changes nothing`, async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    const revise = (args: Record<string, unknown>) =>
      call(
        reviseRoute,
        `/api/actions/${a.id}/revise`,
        { id: a.id },
        { cookie: anna.cookie, body: { args } },
      );
    for (let i = 0; i < REVISIONS_PER_MINUTE; i++)
      expect((await revise({ orderId: "9307" })).status).toBe(400);
    const before = await actionCount();
    await expectLimited(await revise({ comment: "Cracked lid" }));
    expect(await actionCount()).toBe(before);
    expect(await actionRow(core.db, a.id)).toMatchObject({ status: "pending", revision: 0 });
  });
});

describe("staff decisions", () => {
  it(`${STAFF_DECISIONS_PER_MINUTE} a minute across approve, reject, receive, retry, resolve and release; beyond it each is 429 and nothing changes`, async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "2890",
      reason: "damaged",
    });
    expect(a.requiresApproval).toBe(true);
    expect((await anna.confirm(a.id)).status).toBe(200);

    const as = { cookie: staff };
    const approve = (id: string) =>
      call(approveRoute, `/api/staff/actions/${id}/approve`, { id }, { ...as, method: "POST" });
    const decisions: [string, () => Promise<Response>][] = [
      ["approve", () => approve(a.id)],
      [
        "reject",
        () =>
          call(
            rejectRoute,
            `/api/staff/actions/${a.id}/reject`,
            { id: a.id },
            { ...as, body: { reason: "No photos" } },
          ),
      ],
      [
        "receive",
        () =>
          call(
            receiveRoute,
            "/api/staff/returns/RR-nope/receive",
            { requestId: "RR-nope" },
            { ...as, method: "POST" },
          ),
      ],
      [
        "retry",
        () =>
          call(
            retryRoute,
            "/api/staff/effects/nope/retry",
            { id: "nope" },
            { ...as, body: { updatedAt: new Date().toISOString() } },
          ),
      ],
      [
        "resolve",
        () =>
          call(
            resolveRoute,
            "/api/staff/effects/nope/resolve",
            { id: "nope" },
            { ...as, body: { note: "Paid by bank transfer" } },
          ),
      ],
      [
        "release",
        () =>
          call(
            releaseRoute,
            "/api/staff/chats/nope/release",
            { id: "nope" },
            { ...as, method: "POST" },
          ),
      ],
    ];
    // Each kind once (a 404 for the unknown ids), then approvals of an unknown action, up to
    // the budget: every answer counts.
    for (const [, decide] of decisions.slice(2)) expect((await decide()).status).toBe(404);
    for (let i = decisions.length - 2; i < STAFF_DECISIONS_PER_MINUTE; i++)
      expect((await approve("nope")).status).toBe(404);

    for (const [name, decide] of decisions) {
      const res = await decide();
      expect({ name, status: res.status }).toEqual({ name, status: 429 });
      await expectLimited(res);
    }
    expect(await actionRow(core.db, a.id)).toMatchObject({
      status: "awaiting_approval",
      rejectReason: null,
      approvedBy: null,
    });
  });
});
