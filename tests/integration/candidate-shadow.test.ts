/**
 * Shadow mode with two loopback OpenAI-protocol servers, one the live model and one the
 * candidate, a loopback Stripe, the real route handlers and a real database. The candidate
 * disagrees on purpose (a write where live answered, another argument, an error, a hang) and
 * shadow records each difference and does nothing else: no pending action, no effect, no
 * outbox row, no audit event, no provider request; the customer's answer is the live one, and
 * it is complete while the candidate is still held.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as candidateRoute } from "@/app/api/staff/candidate/route";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { getDb } from "@/db";
import { listCandidateComparisonsForChat } from "@/db/queries/candidate";
import { listModelCallsForChat } from "@/db/queries/metrics";
import { auditEvents, candidateComparisons, effects, pendingActions } from "@/db/schema";
import type { CandidateReportResponse } from "@/lib/api/candidate";
import { shadowRunsSettled } from "@/lib/chat/candidate/shadow";
import { parseEnv, resetEnv } from "@/lib/env";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { call, signIn } from "../helpers/http";
import { useLoopbackModel } from "../helpers/loopback-model";
import { type OpenAIServer, type Script, startOpenAIServer } from "../helpers/openai-server";
import { pendingActionPart } from "../helpers/stream";

const rows = async () => ({
  actions: (await getDb().select().from(pendingActions)).length,
  effects: (await getDb().select().from(effects)).length,
  audit: (await getDb().select().from(auditEvents)).length,
});

describe("a candidate profile in shadow", () => {
  let live: OpenAIServer;
  let candidate: OpenAIServer;
  let stripe: StripeServer;
  let stopModel: () => Promise<void>;
  let anna: Customer;
  let staffCookie: string;

  beforeAll(async () => {
    candidate = await startOpenAIServer();
    stripe = await startStripeServer();
    ({ server: live, stop: stopModel } = await useLoopbackModel({
      CANDIDATE_MODE: "shadow",
      CANDIDATE_SHARE: "1",
      CANDIDATE_OPENAI_BASE_URL: candidate.baseURL,
      CANDIDATE_OPENAI_MODEL: "candidate-1",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
    }));
    anna = await Customer.signIn("anna@example.com");
    staffCookie = await signIn("staff@example.com");
  });
  afterAll(async () => {
    await shadowRunsSettled();
    await stopModel();
    await candidate.close();
    await stripe.close();
    delete process.env.CANDIDATE_SHARE;
    resetEnv();
  });
  beforeEach(async () => {
    live.requests.length = 0;
    candidate.requests.length = 0;
    await resetRateLimits();
  });

  async function turn(text: string, liveScripts: Script[], candidateScripts: Script[]) {
    live.enqueue(...liveScripts);
    candidate.enqueue(...candidateScripts);
    const chat = await anna.newChat();
    const result = await anna.say(chat, text);
    return { chat, ...result };
  }

  it("a write where live answered is recorded, and creates nothing anywhere", async () => {
    const before = await rows();
    const stripeBefore = stripe.requests.length;
    const t = await turn(
      "Can I still cancel 3004?",
      [{ type: "text", text: "Yes, order 3004 has not shipped yet." }],
      [
        {
          type: "tool-calls",
          calls: [{ name: "cancel_order", arguments: { orderId: "3004", reason: "changed_mind" } }],
        },
      ],
    );
    await shadowRunsSettled();
    expect(t.text).toBe("Yes, order 3004 has not shipped yet.");
    expect(t.errors).toEqual([]);
    expect(pendingActionPart(t.message)).toBeUndefined();
    // The candidate ran the turn on the same history and was told a card would be shown.
    expect(candidate.requests).toHaveLength(1);
    expect(candidate.requests[0]!.body.model).toBe("candidate-1");
    expect(candidate.requests[0]!.body.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Can I still cancel 3004?",
    });
    expect(await rows()).toEqual(before);
    expect(stripe.requests.length).toBe(stripeBefore);
    const [row, ...rest] = await listCandidateComparisonsForChat(t.chat);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      liveTools: [],
      candidateTools: ["cancel_order"],
      toolsAgree: false,
      argsAgree: false,
      liveWrite: false,
      candidateWrite: true,
      candidateError: null,
      liveAnswerChars: "Yes, order 3004 has not shipped yet.".length,
    });
    expect(row!.liveFingerprint).not.toBe(row!.candidateFingerprint);
    // The live fingerprint is the one the turn's model call recorded.
    const [modelCall] = await listModelCallsForChat({ chatId: t.chat });
    expect(modelCall!.fingerprint).toBe(row!.liveFingerprint);
  });

  it("a policy refusal of the candidate's write is counted, and nothing is stored", async () => {
    const before = await rows();
    // 8041 has shipped: cancel_order's policy refuses it.
    const t = await turn(
      "Cancel 8041 please",
      [{ type: "text", text: "Order 8041 has shipped, so it can no longer be cancelled." }],
      [
        {
          type: "tool-calls",
          calls: [{ name: "cancel_order", arguments: { orderId: "8041", reason: "changed_mind" } }],
        },
        { type: "text", text: "It has shipped." },
      ],
    );
    await shadowRunsSettled();
    expect(await rows()).toEqual(before);
    const [row] = await listCandidateComparisonsForChat(t.chat);
    expect(row).toMatchObject({ candidateRefusals: 1, candidateWrite: false, liveRefusals: 0 });
  });

  it("a differing argument is recorded by its field name, and only the live card exists", async () => {
    const before = await rows();
    const args = { orderId: "7718", reason: "damaged" };
    const t = await turn(
      "Return 7718, it arrived damaged",
      [{ type: "tool-calls", calls: [{ name: "create_return_request", arguments: args }] }],
      [
        {
          type: "tool-calls",
          calls: [{ name: "create_return_request", arguments: { ...args, reason: "defective" } }],
        },
      ],
    );
    await shadowRunsSettled();
    const card = pendingActionPart(t.message);
    expect(card?.data.status).toBe("pending");
    // One pending action, the live one, and its one audit event.
    expect(await rows()).toEqual({
      actions: before.actions + 1,
      effects: before.effects,
      audit: before.audit + 1,
    });
    const [row] = await listCandidateComparisonsForChat(t.chat);
    expect(row).toMatchObject({
      liveTools: ["create_return_request"],
      candidateTools: ["create_return_request"],
      toolsAgree: true,
      argsAgree: false,
      argDiffs: [{ call: 0, tool: "create_return_request", fields: ["reason"] }],
      liveWrite: true,
      candidateWrite: true,
    });
    // No value of either side's arguments is kept.
    expect(JSON.stringify(row)).not.toContain("defective");
    await anna.cancel(card!.data.id);
  });

  it("the live turn completes while the candidate is still held", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const t = await turn(
      "Hello!",
      [{ type: "text", text: "Hi! How can I help?" }],
      [{ type: "text", text: "Hello there.", gate }],
    );
    // The customer's answer is complete and saved; the candidate has not answered yet.
    expect(t.text).toBe("Hi! How can I help?");
    expect(t.errors).toEqual([]);
    expect(await listCandidateComparisonsForChat(t.chat)).toEqual([]);
    release();
    await shadowRunsSettled();
    const [row] = await listCandidateComparisonsForChat(t.chat);
    expect(row).toMatchObject({
      toolsAgree: true,
      argsAgree: true,
      candidateAnswerChars: "Hello there.".length,
      candidateError: null,
    });
  });

  it("a candidate provider error is recorded against the candidate; the customer sees nothing", async () => {
    const t = await turn(
      "Where is 8041?",
      [
        {
          type: "tool-calls",
          calls: [{ name: "get_order_status", arguments: { orderId: "8041" } }],
        },
        { type: "text", text: "Order 8041 is in transit." },
      ],
      [{ type: "error", status: 500, message: "candidate down" }],
    );
    await shadowRunsSettled();
    expect(t.text).toBe("Order 8041 is in transit.");
    expect(t.errors).toEqual([]);
    const [row] = await listCandidateComparisonsForChat(t.chat);
    expect(row).toMatchObject({
      liveTools: ["get_order_status"],
      candidateTools: [],
      candidateError: "model_error",
      toolsAgree: false,
    });
  });

  it("CANDIDATE_SHARE samples: 0 repeats no turn, 1 every turn", async () => {
    process.env.CANDIDATE_SHARE = "0";
    resetEnv();
    const skipped = await turn("Hello!", [{ type: "text", text: "Hi!" }], []);
    await shadowRunsSettled();
    expect(candidate.requests).toHaveLength(0);
    expect(await listCandidateComparisonsForChat(skipped.chat)).toEqual([]);

    process.env.CANDIDATE_SHARE = "1";
    resetEnv();
    for (let i = 0; i < 3; i++) {
      const t = await turn(
        "Hello!",
        [{ type: "text", text: "Hi!" }],
        [{ type: "text", text: "Hi!" }],
      );
      await shadowRunsSettled();
      expect(await listCandidateComparisonsForChat(t.chat)).toHaveLength(1);
    }
    expect(candidate.requests).toHaveLength(3);
  });

  it("GET /api/staff/candidate: 401 without a session, 403 for a customer, the figures for staff", async () => {
    const get = (cookie?: string) =>
      call(candidateRoute, "/api/staff/candidate", {}, cookie ? { cookie } : {});
    expect((await get()).status).toBe(401);
    expect((await get(anna.cookie)).status).toBe(403);
    const res = await get(staffCookie);
    expect(res.status).toBe(200);
    const report = (await res.json()) as CandidateReportResponse;
    const all = await getDb().select().from(candidateComparisons);
    expect(report).toMatchObject({
      mode: "shadow",
      share: 1,
      live: { provider: "openai", model: "loopback-1" },
      candidate: { provider: "openai", model: "candidate-1" },
    });
    const c = report.comparison;
    expect(c.turns).toBe(all.length);
    expect(c.turns).toBe(8);
    expect(c.candidateOnlyWrites).toBe(1);
    expect(c.liveOnlyWrites).toBe(0);
    expect(c.liveWrites).toBe(1);
    expect(c.candidateWrites).toBe(2);
    expect(c.candidateRefusals).toBe(1);
    expect(c.candidateErrors).toBe(1);
    // The greeting turns agreed (held, then three sampled); the other four did not.
    expect(c.toolAgreement).toBeCloseTo(5 / 8);
    expect(c.argsAgreement).toBeCloseTo(4 / 8);
    expect(c.latencyRatio).toBeGreaterThan(0);
    expect(c.tokensRatio).toBeGreaterThan(0);
    expect(report.recent).toHaveLength(8);
    expect(report.recent[0]!.candidateFingerprint).toBe(report.candidate!.fingerprint);
    expect(report.recent.find((r) => r.argDiffs.length > 0)?.argDiffs).toEqual([
      { call: 0, tool: "create_return_request", fields: ["reason"] },
    ]);
  });

  it("keys the model invents (a customer's address as an argument name) reach no comparison and no staff page", async () => {
    const ADDRESS = "Anna Petrova, Torstrasse 1, 10119 Berlin, anna@example.com, IBAN DE89";
    const t = await turn(
      "Where is 5120? My address is Torstrasse 1",
      [
        {
          type: "tool-calls",
          calls: [{ name: "get_order_status", arguments: { orderId: "5120" } }],
        },
        { type: "text", text: "It was delivered." },
      ],
      [
        {
          type: "tool-calls",
          calls: [
            {
              name: "get_order_status",
              arguments: { orderId: "5120", [ADDRESS]: "x", nested: { [ADDRESS]: 1 } },
            },
          ],
        },
        { type: "text", text: "It was delivered." },
      ],
    );
    await shadowRunsSettled();
    const [row] = await listCandidateComparisonsForChat(t.chat);
    // The calls differ by the invented keys alone: counted as one field, never named.
    expect(row).toMatchObject({
      toolsAgree: true,
      argsAgree: false,
      argDiffs: [{ call: 0, tool: "get_order_status", fields: ["(unknown keys)"] }],
    });
    const stored = JSON.stringify(await getDb().select().from(candidateComparisons));
    for (const s of ["Torstrasse", "Petrova", "IBAN", "nested"]) expect(stored).not.toContain(s);
    const staff = await call(candidateRoute, "/api/staff/candidate", {}, { cookie: staffCookie });
    expect(staff.status).toBe(200);
    const shown = await staff.text();
    expect(shown).toContain("(unknown keys)");
    for (const s of ["Torstrasse", "Petrova", "IBAN"]) expect(shown).not.toContain(s);
  });
});

describe("the candidate's configuration", () => {
  it("accepts CANDIDATE_MODE=canary and bounds the corridor's settings", () => {
    expect(parseEnv({ CANDIDATE_MODE: "canary" })).toMatchObject({
      CANDIDATE_MODE: "canary",
      CANDIDATE_ROLLBACK_WINDOWS: 2,
      DRIFT_WINDOW_SECONDS: 3600,
      DRIFT_BREACH_WINDOWS: 3,
    });
    expect(() => parseEnv({ DRIFT_WINDOW_SECONDS: "4" })).toThrow(/DRIFT_WINDOW_SECONDS/);
    expect(() => parseEnv({ ALERT_WEBHOOK_URL: "http://127.0.0.1:1/a" })).toThrow(
      /ALERT_WEBHOOK_SECRET/,
    );
  });

  it("takes the live values for what it does not set, and needs a key on openai", () => {
    const e = parseEnv({
      CANDIDATE_MODE: "shadow",
      OPENAI_API_KEY: "k",
      OPENAI_MODEL: "m",
      CANDIDATE_PROMPT_VERSION: "support-v1",
    });
    expect(e).toMatchObject({
      CANDIDATE_MODEL_PROVIDER: "openai",
      CANDIDATE_OPENAI_API_KEY: "k",
      CANDIDATE_OPENAI_MODEL: "m",
      CANDIDATE_PROMPT_VERSION: "support-v1",
      CANDIDATE_SHARE: 0.1,
    });
    expect(() =>
      parseEnv({ CANDIDATE_MODE: "shadow", CANDIDATE_MODEL_PROVIDER: "openai" }),
    ).toThrow(/CANDIDATE_OPENAI_API_KEY/);
    expect(() => parseEnv({ CANDIDATE_SHARE: "1.5" })).toThrow(/CANDIDATE_SHARE/);
    expect(() => parseEnv({ CANDIDATE_PROMPT_VERSION: "support-v9" })).toThrow(
      /CANDIDATE_PROMPT_VERSION/,
    );
  });
});
