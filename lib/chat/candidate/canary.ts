/**
 * Canary (CANDIDATE_MODE=canary): the candidate profile serves CANDIDATE_SHARE of new chats,
 * sticky per chat, and is rolled back automatically (or by staff) when it does worse than the
 * live profile. State lives in the database so every instance agrees:
 * - A chat is the candidate's if its first turn was (model_calls.canary of that turn, with the
 *   candidate's fingerprint); a new chat is if a hash of its id and the fingerprint falls under
 *   the share. So a chat never changes profile mid-way, whichever instance serves it.
 * - candidate_rollouts holds when the candidate's canary began and its rollback; rolling back is a
 *   conditional update, so one instance does it and the others see it on their next turn.
 * - A candidate step that fails (provider error, or no answer within a quarter of the turn's
 *   deadline) is answered by the live profile, with the live prompt, for the rest of that turn;
 *   the turn is recorded against the candidate (model_calls.fallback).
 */
import "server-only";
import { createHash } from "node:crypto";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import {
  type CandidateRolloutRow,
  ensureCandidateRollout,
  getCandidateRollout,
  markCandidateRolledBack,
} from "@/db/queries/candidate";
import { firstTurnOfChat, turnSignals } from "@/db/queries/drift";
import { writeTransaction } from "@/db/queries/tx";
import { raiseAlert } from "@/lib/alerts";
import { recordAudit } from "@/lib/audit-log/record";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { turnDeadlineMs } from "../service";
import { quantile, type TurnSignal } from "./corridor";
import { evaluateDrift, toTurnSignal, windowMs, windowOf } from "./drift";
import { candidateProfile, liveProfile, type ModelProfile } from "./profile";

export type CanaryFailure = "model_error" | "timeout";

/** The audit trail's tool name for a rollback (automatic or by staff). */
export const ROLLBACK_TOOL = "candidate.rollback";

/** Where a chat's share bucket falls, uniform in [0, 1): the same on every instance. */
export function canaryBucket(chatId: string, fingerprint: string): number {
  const h = createHash("sha256").update(`${fingerprint}:${chatId}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

// Ensured once per process and fingerprint; its rollback is read on every turn.
const ensured = new Set<string>();

/** The candidate's rollout row (created now the first time it is seen), or null when off. */
export async function currentRollout(now = new Date()): Promise<CandidateRolloutRow | null> {
  const candidate = candidateProfile();
  if (!candidate) return null;
  if (!ensured.has(candidate.fingerprint)) {
    const row = await ensureCandidateRollout({ fingerprint: candidate.fingerprint, since: now });
    ensured.add(candidate.fingerprint);
    return row;
  }
  return getCandidateRollout(candidate.fingerprint);
}

export type Serving = { profile: ModelProfile; canary: boolean };

/**
 * Which profile serves this turn of the chat. In canary mode it first runs the corridor checks
 * once per closed window (so a rollback due is done before this turn is served).
 */
export async function chooseServing(chatId: string, now = new Date()): Promise<Serving> {
  const live = liveProfile();
  const e = env();
  if (e.CANDIDATE_MODE !== "canary") return { profile: live, canary: false };
  const candidate = candidateProfile();
  if (!candidate) return { profile: live, canary: false };
  await corridorChecksDue(now);
  const rollout = await currentRollout(now);
  if (!rollout || rollout.rolledBackAt) return { profile: live, canary: false };
  const first = await firstTurnOfChat(chatId);
  const canary = first
    ? first.canary && first.fingerprint === candidate.fingerprint
    : canaryBucket(chatId, candidate.fingerprint) < e.CANDIDATE_SHARE;
  return canary ? { profile: candidate, canary: true } : { profile: live, canary: false };
}

/** A quarter of the turn's deadline per candidate step: the live profile needs time to answer. */
export const candidateStepTimeoutMs = () => Math.max(1000, Math.floor(turnDeadlineMs() / 4));

/**
 * The candidate's model with the live one behind it. Each step's stream is read whole before it
 * is passed on: a candidate that fails mid-answer is replaced by the live answer without any of
 * its half answer reaching the customer (a canary chat's text arrives a step at a time). After a
 * failure, the rest of the turn is the live model's, with the live system prompt.
 */
export function canaryModel({
  candidate,
  live,
  liveSystem,
  stepTimeoutMs,
  onFallback,
}: {
  candidate: LanguageModelV3;
  live: LanguageModelV3;
  liveSystem: string;
  stepTimeoutMs: number;
  onFallback: (why: CanaryFailure, err: unknown) => void;
}): LanguageModelV3 {
  let failed = false;
  const asLive = (o: LanguageModelV3CallOptions): LanguageModelV3CallOptions => ({
    ...o,
    prompt: o.prompt.map((m) => (m.role === "system" ? { ...m, content: liveSystem } : m)),
  });
  return {
    specificationVersion: "v3",
    provider: candidate.provider,
    modelId: candidate.modelId,
    supportedUrls: candidate.supportedUrls,
    doGenerate: (o) => (failed ? live.doGenerate(asLive(o)) : candidate.doGenerate(o)),
    async doStream(o) {
      if (failed) return live.doStream(asLive(o));
      const timeout = AbortSignal.timeout(stepTimeoutMs);
      const signal = o.abortSignal ? AbortSignal.any([o.abortSignal, timeout]) : timeout;
      try {
        const r = await candidate.doStream({ ...o, abortSignal: signal });
        const parts: LanguageModelV3StreamPart[] = [];
        const reader = r.stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.type === "error") throw value.error;
          parts.push(value);
        }
        return {
          ...r,
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(c) {
              for (const p of parts) c.enqueue(p);
              c.close();
            },
          }),
        };
      } catch (err) {
        // The turn's own deadline (or the customer's stop) is not the candidate's failure.
        if (o.abortSignal?.aborted) throw err;
        failed = true;
        onFallback(timeout.aborted ? "timeout" : "model_error", err);
        return live.doStream(asLive(o));
      }
    },
  };
}

// ---------------------------------------------------------------- judging and rolling back

type Figures = {
  turns: number;
  errorRate: number;
  refusalShare: number;
  declinedWriteShare: number;
  latencyP95Ms: number;
};

function figures(turns: TurnSignal[]): Figures {
  const n = turns.length;
  const share = (p: (t: TurnSignal) => boolean) => (n === 0 ? 0 : turns.filter(p).length / n);
  return {
    turns: n,
    errorRate: share((t) => t.failed),
    refusalShare: share((t) => t.refusals > 0),
    declinedWriteShare: share((t) => t.declined),
    latencyP95Ms: quantile(
      turns.map((t) => t.latencyMs).sort((a, b) => a - b),
      0.95,
    )!,
  };
}

/** Live needs this many turns in a window before its figures are the yardstick. */
export const MIN_LIVE_TURNS = 5;
/** Without live figures: the absolute limits (an error rate above 20 % rolls back on a fresh install). */
export const ABSOLUTE = { errorRate: 0.2, refusalShare: 0.5, declinedWriteShare: 0.5 };
/** With live figures: how much worse the canary may be. */
export const MARGIN = { errorRate: 0.1, refusalShare: 0.2, declinedWriteShare: 0.2 };

/**
 * Why the canary's window is a breach (empty: it is not). Judged against the live profile's
 * figures in the same window when live had MIN_LIVE_TURNS turns there, and always against the
 * absolute error limit.
 */
export function canaryBreaches(canary: Figures, live: Figures | null): string[] {
  if (canary.turns === 0) return [];
  const out: string[] = [];
  if (canary.errorRate > ABSOLUTE.errorRate) out.push("errorRate");
  const yard = live && live.turns >= MIN_LIVE_TURNS ? live : null;
  for (const k of ["errorRate", "refusalShare", "declinedWriteShare"] as const) {
    if (out.includes(k)) continue;
    const limit = yard ? yard[k] + MARGIN[k] : ABSOLUTE[k];
    if (canary[k] > limit) out.push(k);
  }
  const latencyLimit = yard
    ? Math.max(2 * yard.latencyP95Ms, yard.latencyP95Ms + 1000)
    : turnDeadlineMs() / 2;
  if (canary.latencyP95Ms > latencyLimit) out.push("latencyP95Ms");
  return out;
}

/**
 * Rolls the canary back when each of the last CANDIDATE_ROLLBACK_WINDOWS closed windows is a
 * breach. True if this call rolled it back.
 */
export async function judgeCanary(now = new Date()): Promise<boolean> {
  const e = env();
  if (e.CANDIDATE_MODE !== "canary") return false;
  const candidate = candidateProfile();
  if (!candidate) return false;
  const rollout = await currentRollout(now);
  if (!rollout || rollout.rolledBackAt) return false;
  const ms = windowMs();
  const current = windowOf(now, ms);
  const n = e.CANDIDATE_ROLLBACK_WINDOWS;
  const rows = await turnSignals({
    from: new Date((current - n) * ms),
    to: new Date(current * ms),
  });
  const live = liveProfile().fingerprint;
  const reasons: string[][] = [];
  for (let w = current - n; w < current; w++) {
    const inWindow = rows.filter((r) => windowOf(r.at, ms) === w);
    const canaryTurns = inWindow
      .filter((r) => r.canary && r.fingerprint === candidate.fingerprint)
      .map(toTurnSignal);
    const liveTurns = inWindow.filter((r) => !r.canary && r.fingerprint === live).map(toTurnSignal);
    const out = canaryBreaches(figures(canaryTurns), liveTurns.length ? figures(liveTurns) : null);
    if (out.length === 0) return false;
    reasons.push(out);
  }
  const reason = `corridor breached for ${n} windows in a row: ${[...new Set(reasons.flat())].join(", ")}`;
  return (await rollBack({ fingerprint: candidate.fingerprint, reason, by: null, now })) !== null;
}

async function rollBack({
  fingerprint,
  reason,
  by,
  now,
}: {
  fingerprint: string;
  reason: string;
  by: string | null;
  now: Date;
}): Promise<CandidateRolloutRow | null> {
  const row = await writeTransaction(async () => {
    const updated = await markCandidateRolledBack({ fingerprint, at: now, reason, by });
    if (!updated) return null;
    await recordAudit({
      at: now,
      tool: ROLLBACK_TOOL,
      status: "success",
      actorId: by,
      profile: "canary",
      arguments: { fingerprint, automatic: by === null },
      result: { reason },
    });
    return updated;
  });
  if (row) {
    log().warn({ fingerprint, reason, by }, "candidate rolled back");
    await raiseAlert({
      kind: "candidate.rollback",
      dedupeKey: `rollback:${fingerprint}`,
      fingerprint,
      at: now,
      detail: { reason, by, automatic: by === null },
    });
  }
  return row;
}

/**
 * The kill switch (POST /api/staff/candidate/rollback): audited with the staff member, alerted.
 * Rolling back a candidate already rolled back changes nothing. 409 with no candidate configured.
 */
export async function rollbackCandidate({
  staffId,
  reason,
  now = new Date(),
}: {
  staffId: string;
  reason?: string;
  now?: Date;
}): Promise<void> {
  const candidate = candidateProfile();
  if (!candidate) throw new AppError("conflict", "No candidate profile is configured.");
  await currentRollout(now);
  await rollBack({
    fingerprint: candidate.fingerprint,
    reason: reason ?? "rolled back by staff",
    by: staffId,
    now,
  });
}

// ---------------------------------------------------------------- when the checks run

let checkedWindow = -1;

/**
 * The corridor checks (the canary's judgement, drift alerts) for the windows closed by `now`,
 * once per window per process; every instance may run them (their effects are idempotent).
 */
export async function corridorChecksDue(now = new Date()): Promise<void> {
  const w = windowOf(now);
  if (w <= checkedWindow) return;
  checkedWindow = w;
  await runCorridorChecks(now);
}

export async function runCorridorChecks(now = new Date()): Promise<void> {
  try {
    await judgeCanary(now);
    await evaluateDrift(now);
  } catch (err) {
    log().error({ err: errorFields(err) }, "corridor checks failed");
  }
}

type Watch = { timer?: NodeJS.Timeout };
const g = globalThis as unknown as { __returnsDeskCorridor?: Watch };

/** Runs the checks as each window closes, in this process (started with the server). */
export function startCorridorWatch(): void {
  if (g.__returnsDeskCorridor) return;
  const state: Watch = {};
  g.__returnsDeskCorridor = state;
  const tick = () => {
    const ms = windowMs();
    // A second past the next boundary, so the window just closed is complete.
    const delay = ms - (Date.now() % ms) + 1000;
    state.timer = setTimeout(() => {
      void corridorChecksDue().finally(tick);
    }, delay);
    state.timer.unref();
  };
  tick();
}

export function stopCorridorWatch(): void {
  clearTimeout(g.__returnsDeskCorridor?.timer);
  g.__returnsDeskCorridor = undefined;
}
