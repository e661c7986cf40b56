/**
 * Shadow mode (CANDIDATE_MODE=shadow): for a sampled share of live turns (CANDIDATE_SHARE), once
 * the live answer has streamed and been saved, the candidate profile runs the same turn on the
 * same history, with its tools run dry (runDryTurn: a write only plans), and the two
 * trajectories are compared and stored (candidate_comparisons). The customer never sees the
 * candidate: it starts after the live turn is done, never holds it, and whatever it does (a
 * provider error, a hang until its deadline) is recorded against the candidate only.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import { insertCandidateComparison } from "@/db/queries/candidate";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { compareTrajectories, type Trajectory } from "./compare";
import { runDryTurn } from "./dry-turn";
import { candidateProfile } from "./profile";

/**
 * Shadow runs at once in this process, at most: past it a sampled turn is skipped (and logged),
 * so a slow candidate can cost the live profile neither memory nor connections without bound.
 */
export const MAX_SHADOW_RUNS = 16;

const running = new Set<Promise<void>>();

export type ShadowTurn = {
  userId: string;
  chatId: string;
  /** The live turn's assistant message and its start. */
  messageId: string;
  startedAt: Date;
  summary: string | null;
  /** Exactly what the live model was sent: the stored history and the customer's message. */
  messages: ModelMessage[];
  maxSteps: number;
  live: Trajectory;
};

/**
 * Called by the live turn once it is saved. Decides the sample and schedules the run for after
 * the caller's own work (setImmediate); returns at once, never throws.
 */
export function scheduleShadowTurn(turn: ShadowTurn, random: () => number = Math.random): void {
  const e = env();
  if (e.CANDIDATE_MODE !== "shadow") return;
  // random() is in [0, 1): a share of 1 samples every turn and 0 none.
  if (!(random() < e.CANDIDATE_SHARE)) return;
  if (running.size >= MAX_SHADOW_RUNS) {
    log().warn({ chatId: turn.chatId }, "shadow run skipped: too many running");
    return;
  }
  const run = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => runShadowTurn(turn))
    .catch((err) => {
      log().error({ err: errorFields(err), chatId: turn.chatId }, "shadow run failed");
    })
    .finally(() => {
      running.delete(run);
    });
  running.add(run);
}

/** Resolves when every shadow run started so far has finished (tests, a graceful stop). */
export async function shadowRunsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

async function runShadowTurn(turn: ShadowTurn): Promise<void> {
  const candidate = candidateProfile();
  if (!candidate) return;
  const { trajectory: candidateTrajectory, error } = await runDryTurn({
    profile: candidate,
    userId: turn.userId,
    chatId: turn.chatId,
    summary: turn.summary,
    messages: turn.messages,
    maxSteps: turn.maxSteps,
  });
  const tokens = candidateTrajectory.tokens;
  const compared = compareTrajectories(turn.live, candidateTrajectory);
  const { live } = turn;
  await insertCandidateComparison({
    id: randomUUID(),
    at: turn.startedAt,
    chatId: turn.chatId,
    userId: turn.userId,
    messageId: turn.messageId,
    liveFingerprint: live.fingerprint,
    candidateFingerprint: candidate.fingerprint,
    liveTools: live.calls.map((c) => c.tool),
    candidateTools: candidateTrajectory.calls.map((c) => c.tool),
    toolsAgree: error === null && compared.toolsAgree,
    argsAgree: error === null && compared.argsAgree,
    argDiffs: compared.argDiffs,
    liveWrite: live.proposedWrite,
    candidateWrite: candidateTrajectory.proposedWrite,
    liveRefusals: live.refusals,
    candidateRefusals: candidateTrajectory.refusals,
    liveAnswerChars: live.answerChars,
    candidateAnswerChars: candidateTrajectory.answerChars,
    liveLatencyMs: live.latencyMs,
    candidateLatencyMs: candidateTrajectory.latencyMs,
    liveTokens: live.tokens,
    candidateTokens: tokens,
    candidateError: error,
  });
}
