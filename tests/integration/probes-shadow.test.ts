/**
 * A probe set run in shadow (what `npm run eval -- --probes --shadow` runs): the newest set and,
 * next to it, the previous set's probes of scenarios the newest lost, each run dry by the live
 * profile and the candidate (two loopback OpenAI-protocol servers), compared like a live turn,
 * and nothing stored or sent: no pending action, no effect, no audit event, no model call row,
 * no comparison row, no request at the loopback Stripe. SQLite, and PostgreSQL in the postgres
 * project.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { getDb } from "@/db";
import {
  auditEvents,
  candidateComparisons,
  effects,
  modelCalls,
  pendingActions,
  user,
} from "@/db/schema";
import { candidateProfile, liveProfile } from "@/lib/chat/candidate/profile";
import { recordTurnProfile } from "@/lib/chat/probes/record";
import { probesToRun, rebuildProbeSet } from "@/lib/chat/probes/sets";
import { runProbesInShadow } from "@/lib/chat/probes/shadow";
import { resetEnv } from "@/lib/env";
import { store, storeCustomer } from "@/lib/store";
import { toolDescriptors } from "@/lib/tools/registry";
import { probeCandidates } from "../../eval/probes";
import { useTestDatabase } from "../helpers/db";
import {
  type OpenAIServer,
  type RecordedRequest,
  startOpenAIServer,
} from "../helpers/openai-server";

const WRITE_TOOLS = new Set(
  toolDescriptors()
    .filter((d) => d.access === "write")
    .map((d) => d.name),
);
const afterTool = (r: RecordedRequest) => r.body.messages.at(-1)?.role === "tool";

let live: OpenAIServer;
let candidate: OpenAIServer;
let stripe: StripeServer;
let annaId: string;
const vars: Record<string, string> = {};

beforeAll(async () => {
  // Live answers in words; the candidate proposes cancelling 3004 (Anna's, still processing)
  // whatever it is asked, then answers once the tool has spoken.
  live = await startOpenAIServer(() => ({ type: "text", text: "Here is what I know." }));
  candidate = await startOpenAIServer((r) =>
    afterTool(r)
      ? { type: "text", text: "Shall I cancel it?" }
      : {
          type: "tool-calls",
          calls: [{ name: "cancel_order", arguments: { orderId: "3004", reason: "changed_mind" } }],
        },
  );
  stripe = await startStripeServer();
  Object.assign(vars, {
    MODEL_PROVIDER: "openai",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: live.baseURL,
    OPENAI_MODEL: "live-1",
    CANDIDATE_MODE: "shadow",
    CANDIDATE_SHARE: "0",
    CANDIDATE_OPENAI_BASE_URL: candidate.baseURL,
    CANDIDATE_OPENAI_MODEL: "candidate-1",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.url,
  });
  await useTestDatabase({ env: vars });
  annaId = (await getDb().select().from(user).where(eq(user.email, "anna@example.com")))[0]!.id;
});
afterAll(async () => {
  await live.close();
  await candidate.close();
  await stripe.close();
  for (const k of Object.keys(vars)) delete process.env[k];
  resetEnv();
});

async function facts(lang: "en" | "ru", tool: string, orderId: string) {
  return {
    userId: annaId,
    at: new Date(),
    fingerprint: liveProfile().fingerprint,
    lang,
    messages: 1,
    messageChars: 10,
    answerChars: 10,
    calls: [{ tool, args: { orderId } }],
    // What the tool read at the real store, as a live turn hears it (ToolContext.onOrderRead).
    orderReads: new Map([[orderId, await store().findOrder(await storeCustomer(annaId), orderId)]]),
    outcome: WRITE_TOOLS.has(tool) ? ("proposed" as const) : ("answered" as const),
  };
}

const counts = async () => ({
  actions: (await getDb().select().from(pendingActions)).length,
  effects: (await getDb().select().from(effects)).length,
  audit: (await getDb().select().from(auditEvents)).length,
  modelCalls: (await getDb().select().from(modelCalls)).length,
  comparisons: (await getDb().select().from(candidateComparisons)).length,
});

describe("a probe set in shadow", () => {
  it("runs the new set and the previous set's lost scenarios through both profiles, dry, and records each difference", async () => {
    const rare = "ru|create_return_request|delivered_within_window";
    // A first set from a mix with a rare Russian return (7718 is Anna's, delivered in the window).
    for (let i = 0; i < 3; i++)
      await recordTurnProfile(await facts("en", "get_order_status", "8041"));
    await recordTurnProfile(await facts("ru", "create_return_request", "7718"));
    const older = await rebuildProbeSet({ candidates: probeCandidates(), size: 12 });
    expect(older.probes.some((p) => p.scenario === rare)).toBe(true);
    // Recent load is all status questions: the rare scenario leaves the newest set.
    for (let i = 0; i < 5; i++)
      await recordTurnProfile(await facts("en", "get_order_status", "8041"));
    await rebuildProbeSet({ candidates: probeCandidates(), size: 12, sample: 5 });
    const toRun = await probesToRun();

    const before = await counts();
    const report = await runProbesInShadow({ probes: toRun, userId: annaId });

    expect(report.live).toBe(liveProfile().fingerprint);
    expect(report.candidate).toBe(candidateProfile()!.fingerprint);
    expect(report.runs).toHaveLength(toRun.length);
    // Next to the new set: the previous set's probes, the rare scenario among them.
    expect(report.summary.previous).toBeGreaterThan(0);
    expect(report.runs.some((r) => r.set === "previous" && r.scenario === rare)).toBe(true);
    // Each probe was asked of both models, as the eval's own words.
    const firsts = (s: OpenAIServer) => s.requests.filter((r) => !afterTool(r));
    expect(firsts(live)).toHaveLength(toRun.length);
    expect(firsts(candidate)).toHaveLength(toRun.length);
    expect(candidate.requests[0]!.body.model).toBe("candidate-1");
    // Every difference is recorded: the candidate planned a write live never proposed.
    for (const r of report.runs) {
      expect(r.live).toMatchObject({ tools: [], write: false, error: null });
      expect(r.candidate).toMatchObject({ tools: ["cancel_order"], write: true, error: null });
      expect(r.toolsAgree).toBe(false);
    }
    expect(report.summary).toMatchObject({
      probes: toRun.length,
      toolAgreement: 0,
      candidateOnlyWrites: toRun.length,
      liveOnlyWrites: 0,
      candidateErrors: 0,
    });
    // And nothing else happened: no row anywhere, no request at the payment provider.
    expect(await counts()).toEqual(before);
    expect(stripe.requests).toHaveLength(0);
  });

  it("a failing candidate is counted against it, and the run goes on", async () => {
    const probes = (await probesToRun()).slice(0, 2);
    const failing = await startOpenAIServer(() => ({ type: "error", status: 500 }));
    process.env.CANDIDATE_OPENAI_BASE_URL = failing.baseURL;
    resetEnv();
    try {
      const report = await runProbesInShadow({ probes, userId: annaId });
      expect(report.runs.map((r) => r.candidate.error)).toEqual(["model_error", "model_error"]);
      expect(report.runs.every((r) => !r.toolsAgree && r.live.error === null)).toBe(true);
      expect(report.summary.candidateErrors).toBe(2);
    } finally {
      await failing.close();
      process.env.CANDIDATE_OPENAI_BASE_URL = candidate.baseURL;
      resetEnv();
    }
  });
});
