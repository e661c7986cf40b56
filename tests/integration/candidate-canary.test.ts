/**
 * Canary, automatic and manual rollback, and the drift corridor's alert, with two loopback
 * OpenAI-protocol servers (live and candidate), the real route handlers, a real database and a
 * Standard Webhooks receiver for the alerts. Windows are moved through by setting the clock
 * (only Date is faked; it runs on from where it is set), never by sleeping.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as acknowledgeRoute } from "@/app/api/staff/alerts/[id]/acknowledge/route";
import { POST as rollbackRoute } from "@/app/api/staff/candidate/rollback/route";
import { GET as candidateRoute } from "@/app/api/staff/candidate/route";
import { GET as driftRoute } from "@/app/api/staff/drift/route";
import { getDb } from "@/db";
import { listModelCallsForChat } from "@/db/queries/metrics";
import { alerts, auditEvents, effects } from "@/db/schema";
import { recordModelCall } from "@/lib/ai/model-calls";
import type { CandidateReportResponse } from "@/lib/api/candidate";
import type { AlertView, DriftResponse } from "@/lib/api/drift";
import { canaryBucket } from "@/lib/chat/candidate/canary";
import { evaluateDrift } from "@/lib/chat/candidate/drift";
import { candidateProfile } from "@/lib/chat/candidate/profile";
import { runDueEffects } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { userIdOf, useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const WINDOW_S = 60;
const WINDOW_MS = WINDOW_S * 1000;

describe("a candidate profile as a canary", () => {
  let live: OpenAIServer;
  let candidate: OpenAIServer;
  let sink: WebhookReceiver;
  let anna: Customer;
  let staffCookie: string;
  /** The next window's start: always ahead of the real clock, and only ever moved forward. */
  let window = 0;
  const vars: Record<string, string> = {};

  /** Sets the clock a second into the next window. */
  function nextWindow(): number {
    window += 1;
    vi.setSystemTime(window * WINDOW_MS + 1000);
    return window;
  }
  function switchCandidate(model: string, share: string) {
    process.env.CANDIDATE_OPENAI_MODEL = model;
    process.env.CANDIDATE_SHARE = share;
    resetEnv();
  }
  async function firstTurn(text = "Hello!") {
    const chat = await anna.newChat();
    const before = { live: live.requests.length, candidate: candidate.requests.length };
    const t = await anna.say(chat, text);
    return {
      chat,
      ...t,
      servedBy:
        candidate.requests.length > before.candidate
          ? live.requests.length > before.live
            ? "both"
            : "candidate"
          : "live",
    };
  }
  const deliveriesOf = (kind: string) =>
    sink.deliveries.filter(
      (d) => (d.verified as { data?: { kind?: string } } | null)?.data?.kind === kind,
    );

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    window = Math.floor(Date.now() / WINDOW_MS) + 10;
    live = await startOpenAIServer(() => ({ type: "text", text: "Live answer." }));
    // The candidate errs as "candidate-err", never answers as "candidate-slow", answers otherwise.
    candidate = await startOpenAIServer((req) =>
      req.body.model === "candidate-err"
        ? { type: "error", status: 500, message: "candidate down" }
        : req.body.model === "candidate-slow"
          ? { type: "hang" }
          : { type: "text", text: "Candidate answer." },
    );
    sink = await startWebhookReceiver();
    Object.assign(vars, {
      MODEL_PROVIDER: "openai",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: live.baseURL,
      OPENAI_MODEL: "loopback-1",
      CANDIDATE_MODE: "canary",
      CANDIDATE_SHARE: "0.5",
      CANDIDATE_OPENAI_BASE_URL: candidate.baseURL,
      CANDIDATE_OPENAI_MODEL: "candidate-1",
      DRIFT_WINDOW_SECONDS: String(WINDOW_S),
      CHAT_RATE_LIMIT_PER_MINUTE: "10000",
      ALERT_WEBHOOK_URL: sink.url,
      ALERT_WEBHOOK_SECRET: sink.secret,
    });
    await useTestDatabase({ env: vars });
    anna = await Customer.signIn("anna@example.com");
    staffCookie = await signIn("staff@example.com");
  });
  afterAll(async () => {
    vi.useRealTimers();
    await live.close();
    await candidate.close();
    await sink.close();
    for (const k of Object.keys(vars)) delete process.env[k];
    resetEnv();
  });
  beforeEach(async () => {
    await resetRateLimits();
  });

  it("serves its share of new chats, each chat sticky, every step audited as canary", async () => {
    switchCandidate("candidate-1", "0.5");
    nextWindow();
    const fingerprint = candidateProfile()!.fingerprint;
    const N = 60;
    const served: { chat: string; by: string }[] = [];
    for (let i = 0; i < N; i++) {
      const t = await firstTurn();
      expect(t.errors).toEqual([]);
      expect(t.text).toBe(t.servedBy === "candidate" ? "Candidate answer." : "Live answer.");
      served.push({ chat: t.chat, by: t.servedBy });
      if (i % 20 === 19) await resetRateLimits();
    }
    const canary = served.filter((s) => s.by === "candidate").length;
    // Binomial(60, 0.5): ±15 is more than 3.8 standard deviations.
    expect(Math.abs(canary - N * 0.5)).toBeLessThanOrEqual(15);
    // Each chat went where its bucket says, on every instance alike.
    for (const s of served)
      expect(s.by).toBe(canaryBucket(s.chat, fingerprint) < 0.5 ? "candidate" : "live");

    // Sticky: a second turn stays with its chat's profile.
    for (const s of served.slice(0, 6)) {
      const before = candidate.requests.length;
      const t = await anna.say(s.chat, "And another thing?");
      expect(t.errors).toEqual([]);
      expect(candidate.requests.length > before ? "candidate" : "live").toBe(s.by);
    }

    const canaryChat = served.find((s) => s.by === "candidate")!.chat;
    const liveChat = served.find((s) => s.by === "live")!.chat;

    // Sticky even when the share changes between a chat's turns: the share decides new chats
    // only. A share of 0 keeps a canary chat on the candidate; a share of 1 keeps a live chat live.
    const secondTurnBy = async (chat: string) => {
      const before = candidate.requests.length;
      const t = await anna.say(chat, "One more question.");
      expect(t.errors).toEqual([]);
      return candidate.requests.length > before ? "candidate" : "live";
    };
    switchCandidate("candidate-1", "0");
    expect(candidateProfile()!.fingerprint).toBe(fingerprint);
    expect(await secondTurnBy(canaryChat)).toBe("candidate");
    expect((await firstTurn()).servedBy).toBe("live");
    switchCandidate("candidate-1", "1");
    expect(await secondTurnBy(liveChat)).toBe("live");
    expect((await firstTurn()).servedBy).toBe("candidate");
    switchCandidate("candidate-1", "0.5");

    const [call0] = await listModelCallsForChat({ chatId: canaryChat });
    expect(call0).toMatchObject({
      canary: true,
      fingerprint,
      model: "candidate-1",
      fallback: null,
    });
    const [liveCall] = await listModelCallsForChat({ chatId: liveChat });
    expect(liveCall).toMatchObject({ canary: false, model: "loopback-1" });
    const steps = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.chatId, canaryChat));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((e) => e.profile === "canary" && e.model === "candidate-1")).toBe(true);
    expect(steps.map((e) => e.tool)).toContain("model:step");
    const liveSteps = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.chatId, liveChat));
    expect(liveSteps.every((e) => e.profile === null)).toBe(true);
  });

  it("an erroring candidate: live answers every turn, and after 2 breached windows it is rolled back and new turns go live", async () => {
    switchCandidate("candidate-err", "1");
    const fingerprint = candidateProfile()!.fingerprint;
    const webhooksBefore = deliveriesOf("candidate.rollback").length;

    for (let w = 0; w < 2; w++) {
      nextWindow();
      for (let i = 0; i < 3; i++) {
        const before = candidate.requests.length;
        const t = await firstTurn("Where is 8041?");
        // The candidate was asked and failed; the customer got the live answer, no error.
        expect(candidate.requests.length).toBe(before + 1);
        expect(t.servedBy).toBe("both");
        expect(t.errors).toEqual([]);
        expect(t.text).toBe("Live answer.");
        const [mc] = await listModelCallsForChat({ chatId: t.chat });
        expect(mc).toMatchObject({
          canary: true,
          fingerprint,
          fallback: "model_error",
          error: null,
        });
        const fellBack = await getDb()
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.chatId, t.chat), eq(auditEvents.tool, "model:fallback")));
        expect(fellBack).toHaveLength(1);
      }
    }
    // One breached window so far is not enough: still a canary in the second window.
    const report = async () =>
      (await (
        await call(candidateRoute, "/api/staff/candidate", {}, { cookie: staffCookie })
      ).json()) as CandidateReportResponse;
    expect((await report()).rollback).toBeNull();
    expect((await report()).canary).toEqual({ turns: 6, fallbacks: 6 });

    // The first turn of the next window runs the judgement: two breached windows, rolled back.
    nextWindow();
    const before = candidate.requests.length;
    const t = await firstTurn();
    expect(t.servedBy).toBe("live");
    expect(candidate.requests.length).toBe(before);
    const [mc] = await listModelCallsForChat({ chatId: t.chat });
    expect(mc).toMatchObject({ canary: false, model: "loopback-1" });

    const r = await report();
    expect(r.rollback).toMatchObject({ by: null });
    expect(r.rollback!.reason).toMatch(/errorRate/);
    const audited = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "candidate.rollback"));
    expect(audited.map((e) => (e.arguments as { fingerprint: string }).fingerprint)).toContain(
      fingerprint,
    );
    const raised = await getDb()
      .select()
      .from(alerts)
      .where(and(eq(alerts.kind, "candidate.rollback"), eq(alerts.fingerprint, fingerprint)));
    expect(raised).toHaveLength(1);
    // Through the outbox, signed.
    while ((await runDueEffects()) > 0) {}
    const sent = deliveriesOf("candidate.rollback");
    expect(sent.length).toBe(webhooksBefore + 1);
    expect(sent.at(-1)!.verified).toMatchObject({
      type: "alert.raised",
      data: { id: raised[0]!.id, kind: "candidate.rollback", fingerprint },
    });
    // Shown to staff: among the alerts of the drift report.
    const drift = (await (
      await call(driftRoute, "/api/staff/drift", {}, { cookie: staffCookie })
    ).json()) as DriftResponse;
    expect(drift.alerts.map((a) => a.id)).toContain(raised[0]!.id);
  });

  it("a slow candidate: its step times out, live answers that turn, and the timeout counts against it", async () => {
    // A 4 s turn deadline gives the candidate's step 1 s (a quarter of it).
    process.env.CHAT_TURN_DEADLINE_SECONDS = "4";
    switchCandidate("candidate-slow", "1");
    try {
      const fingerprint = candidateProfile()!.fingerprint;
      nextWindow();
      const before = candidate.requests.length;
      const t = await firstTurn("Where is 8041?");
      expect(candidate.requests.length).toBe(before + 1);
      expect(t.servedBy).toBe("both");
      expect(t.errors).toEqual([]);
      expect(t.text).toBe("Live answer.");
      const [mc] = await listModelCallsForChat({ chatId: t.chat });
      expect(mc).toMatchObject({ canary: true, fingerprint, fallback: "timeout" });
      const fellBack = await getDb()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.chatId, t.chat), eq(auditEvents.tool, "model:fallback")));
      expect(fellBack.map((e) => [e.status, e.errorCode])).toEqual([["timeout", "timeout"]]);
    } finally {
      delete process.env.CHAT_TURN_DEADLINE_SECONDS;
      resetEnv();
    }
  });

  it("the manual kill switch: staff only, audited with who, and new turns go live", async () => {
    switchCandidate("candidate-manual", "1");
    nextWindow();
    expect((await firstTurn()).servedBy).toBe("candidate");

    const post = (cookie: string | undefined, body?: unknown) =>
      call(
        rollbackRoute,
        "/api/staff/candidate/rollback",
        {},
        { method: "POST", ...(cookie ? { cookie } : {}), ...(body ? { body } : {}) },
      );
    expect((await post(undefined)).status).toBe(401);
    expect((await post(anna.cookie)).status).toBe(403);
    expect((await post(staffCookie, { reason: "" })).status).toBe(400);
    const res = await post(staffCookie, { reason: "answers too long" });
    expect(res.status).toBe(200);
    const staffId = await userIdOf("staff@example.com");
    const r = (await res.json()) as CandidateReportResponse;
    expect(r.rollback).toMatchObject({ reason: "answers too long", by: staffId });
    const audited = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tool, "candidate.rollback"), eq(auditEvents.actorId, staffId)));
    expect(audited).toHaveLength(1);

    expect((await firstTurn()).servedBy).toBe("live");
    // Again: nothing changes.
    const again = (await (await post(staffCookie)).json()) as CandidateReportResponse;
    expect(again.rollback).toEqual(r.rollback);
    expect(
      await getDb().select().from(auditEvents).where(eq(auditEvents.tool, "candidate.rollback")),
    ).toHaveLength(2);
  });

  it("drift: the tool mix and the payload size are signals of their own, through the route", async () => {
    const fingerprint = "drift-mix-profile";
    const turn = (start: number, i: number, toolCalls: string[], payloadBytes: number) =>
      recordModelCall({
        kind: "turn",
        startedAt: new Date(start * WINDOW_MS + 1000 + i * 100),
        provider: "openai",
        model: "m",
        promptVersion: "support-v2",
        latencyMs: 1000,
        inputTokens: 400,
        outputTokens: 20,
        steps: 1,
        toolCalls,
        payloadBytes,
        fingerprint,
      });
    const first = window + 1;
    // Five windows of mostly order lookups, now and then a cancel, payloads around 600 bytes.
    for (let w = 0; w < 5; w++)
      for (let i = 0; i < 6; i++)
        await turn(
          first + w,
          i,
          i === w % 6 ? ["get_order_status", "cancel_order"] : ["get_order_status"],
          600 + ((w + i) % 3) * 10,
        );
    // Then a window where the model reaches for returns, with payloads three times the size.
    const moved = first + 5;
    for (let i = 0; i < 6; i++) await turn(moved, i, ["request_return"], 1800);
    window = moved;
    vi.setSystemTime(new Date((moved + 1) * WINDOW_MS + 500));
    const drift = (await (
      await call(driftRoute, "/api/staff/drift", {}, { cookie: staffCookie })
    ).json()) as DriftResponse;
    const p = drift.profiles.find((x) => x.fingerprint === fingerprint)!;
    const inside = p.windows.at(-2)!;
    expect(inside.signals.toolMixDivergence).not.toBeNull();
    expect(inside.corridor!.toolMixDivergence!.low).toBe(0);
    expect(inside.breached).toEqual([]);
    const last = p.windows.at(-1)!;
    expect(last.signals.payloadP95Bytes).toBe(1800);
    expect(last.signals.toolMixDivergence).toBe(1);
    expect(last.breached).toEqual(
      expect.arrayContaining(["toolMixDivergence", "payloadP50Bytes", "payloadP95Bytes"]),
    );
    expect(p.breachRun).toBe(1);
  });

  it("drift: inside the corridor, then out for 1, 2 and 3 windows; the alert fires on the third, once, signed", async () => {
    const fingerprint = "drift-test-profile";
    const turn = (start: number, i: number, latencyMs: number) =>
      recordModelCall({
        kind: "turn",
        startedAt: new Date(start * WINDOW_MS + 1000 + i * 100),
        provider: "openai",
        model: "m",
        promptVersion: "support-v2",
        latencyMs,
        inputTokens: 400,
        outputTokens: 20,
        steps: 1,
        toolCalls: [],
        fingerprint,
      });
    const alertsOf = async () =>
      getDb()
        .select()
        .from(alerts)
        .where(and(eq(alerts.kind, "drift.breach"), eq(alerts.fingerprint, fingerprint)));
    const first = window + 1;
    // Six windows inside: latency around a second.
    for (let w = 0; w < 6; w++)
      for (let i = 0; i < 5; i++) await turn(first + w, i, 1000 + ((w + i) % 3) * 20);
    window = first + 5;
    const endOf = (w: number) => new Date((w + 1) * WINDOW_MS + 500);
    expect(await evaluateDrift(endOf(window))).toBe(0);

    for (let k = 1; k <= 3; k++) {
      window += 1;
      for (let i = 0; i < 5; i++) await turn(window, i, 9000);
      await evaluateDrift(endOf(window));
      expect(await alertsOf()).toHaveLength(k === 3 ? 1 : 0);
    }
    // Evaluated again (another instance, the next tick): still one.
    await evaluateDrift(endOf(window));
    expect(await alertsOf()).toHaveLength(1);

    vi.setSystemTime(endOf(window));
    const drift = (await (
      await call(driftRoute, "/api/staff/drift", {}, { cookie: staffCookie })
    ).json()) as DriftResponse;
    const p = drift.profiles.find((x) => x.fingerprint === fingerprint)!;
    expect(p.breachRun).toBe(3);
    expect(p.windows.slice(-3).every((w) => w.breached.includes("latencyP95Ms"))).toBe(true);
    expect(p.windows.at(-4)!.breached).toEqual([]);
    expect(p.windows.at(-1)!.corridor!.latencyP95Ms!.high).toBeLessThan(9000);

    // One effect in the outbox, one signed delivery, however often the relay runs.
    const [alert] = await alertsOf();
    expect(
      await getDb().select().from(effects).where(eq(effects.actionId, alert!.id)),
    ).toHaveLength(1);
    while ((await runDueEffects()) > 0) {}
    while ((await runDueEffects()) > 0) {}
    const sent = deliveriesOf("drift.breach").filter(
      (d) => (d.verified as { data: { fingerprint: string } }).data.fingerprint === fingerprint,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.id).toBe(`msg_${alert!.id}`);
    expect(sent[0]!.verified).toMatchObject({
      type: "alert.raised",
      data: {
        kind: "drift.breach",
        detail: { windows: 3, signals: ["latencyP50Ms", "latencyP95Ms"] },
      },
    });

    // Acknowledged by staff: audited, off the open list; a customer may not.
    const ack = (cookie: string, id: string) =>
      call(
        acknowledgeRoute,
        `/api/staff/alerts/${id}/acknowledge`,
        { id },
        { method: "POST", cookie },
      );
    expect((await ack(anna.cookie, alert!.id)).status).toBe(403);
    expect((await ack(staffCookie, "al_nope")).status).toBe(404);
    const res = await ack(staffCookie, alert!.id);
    expect(res.status).toBe(200);
    const { alert: view } = (await res.json()) as { alert: AlertView };
    expect(view.acknowledged?.by).toBe(await userIdOf("staff@example.com"));
    const again = (await (await ack(staffCookie, alert!.id)).json()) as { alert: AlertView };
    expect(again.alert.acknowledged).toEqual(view.acknowledged);
    const audited = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "alert:drift.breach"));
    // Raised, then acknowledged once.
    expect(audited.filter((e) => e.actorId !== null)).toHaveLength(1);
  });
});
