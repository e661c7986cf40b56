/** The staff summary of shadow mode (GET /api/staff/candidate). */
import "server-only";
import {
  answeredLatencies,
  type CandidateComparisonRow,
  candidateTotals,
  recentCandidateComparisons,
} from "@/db/queries/candidate";
import { turnSignals } from "@/db/queries/drift";
import type { CandidateComparisonView, CandidateReportResponse } from "@/lib/api/candidate";
import { env } from "@/lib/env";
import { currentRollout } from "./canary";
import { median } from "./corridor";
import { candidateProfile, liveProfile, type ModelProfile } from "./profile";

export const RECENT_COMPARISONS = 20;

const view = (p: ModelProfile) => ({
  fingerprint: p.fingerprint,
  provider: p.info.provider,
  model: p.info.id,
  promptVersion: p.promptVersion,
});
const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

function rowView(r: CandidateComparisonRow): CandidateComparisonView {
  return {
    id: r.id,
    at: r.at.toISOString(),
    chatId: r.chatId,
    messageId: r.messageId,
    liveFingerprint: r.liveFingerprint,
    candidateFingerprint: r.candidateFingerprint,
    tools: { live: r.liveTools, candidate: r.candidateTools },
    toolsAgree: r.toolsAgree,
    argsAgree: r.argsAgree,
    argDiffs: r.argDiffs,
    writes: { live: r.liveWrite, candidate: r.candidateWrite },
    refusals: { live: r.liveRefusals, candidate: r.candidateRefusals },
    answerChars: { live: r.liveAnswerChars, candidate: r.candidateAnswerChars },
    latencyMs: { live: r.liveLatencyMs, candidate: r.candidateLatencyMs },
    tokens: { live: r.liveTokens, candidate: r.candidateTokens },
    candidateError:
      r.candidateError === "timeout" ? "timeout" : r.candidateError ? "model_error" : null,
  };
}

export async function candidateReport(): Promise<CandidateReportResponse> {
  const e = env();
  const candidate = candidateProfile();
  const fingerprint = candidate?.fingerprint ?? null;
  const [t, recent, latencies, rollout] = await Promise.all([
    candidateTotals(fingerprint),
    recentCandidateComparisons({ candidateFingerprint: fingerprint, limit: RECENT_COMPARISONS }),
    answeredLatencies({ candidateFingerprint: fingerprint, limit: 1000 }),
    currentRollout(),
  ]);
  let latencyP50Ms = {
    live: median(latencies.map((l) => l.live)),
    candidate: median(latencies.map((l) => l.candidate)),
  };
  const canary = { turns: 0, fallbacks: 0 };
  if (e.CANDIDATE_MODE === "canary" && candidate && rollout) {
    const rows = await turnSignals({ from: rollout.since, to: new Date(Date.now() + 1) });
    const mine = rows.filter((r) => r.canary && r.fingerprint === candidate.fingerprint);
    const live = liveProfile().fingerprint;
    canary.turns = mine.length;
    canary.fallbacks = mine.filter((r) => r.fallback !== null || r.error !== null).length;
    latencyP50Ms = {
      live: median(rows.filter((r) => !r.canary && r.fingerprint === live).map((r) => r.latencyMs)),
      candidate: median(mine.map((r) => r.latencyMs)),
    };
  }
  return {
    mode: e.CANDIDATE_MODE,
    share: e.CANDIDATE_SHARE,
    since: rollout ? rollout.since.toISOString() : null,
    live: view(liveProfile()),
    candidate: candidate ? view(candidate) : null,
    comparison: {
      turns: t.turns,
      toolAgreement: ratio(t.toolsAgree, t.turns),
      argsAgreement: ratio(t.argsAgree, t.turns),
      liveWrites: t.liveWrites,
      candidateWrites: t.candidateWrites,
      candidateOnlyWrites: t.candidateOnlyWrites,
      liveOnlyWrites: t.liveOnlyWrites,
      liveRefusals: t.liveRefusals,
      candidateRefusals: t.candidateRefusals,
      candidateErrors: t.candidateErrors,
      latencyRatio: ratio(t.candidateLatencyMs, t.liveLatencyMs),
      tokensRatio: ratio(t.candidateTokens, t.liveTokens),
      latencyP50Ms,
    },
    recent: recent.map(rowView),
    canary,
    rollback:
      rollout?.rolledBackAt != null
        ? {
            at: rollout.rolledBackAt.toISOString(),
            reason: rollout.rollbackReason ?? "",
            by: rollout.rolledBackBy,
          }
        : null,
  };
}
