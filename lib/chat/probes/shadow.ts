/**
 * A probe set run in shadow (`npm run eval -- --probes --shadow`): each probe of the newest set,
 * and next to it the previous set's probes of scenarios the newest lost, is run dry (runDryTurn,
 * the same dry run shadow mode uses on live turns) by the live profile and by the candidate, and
 * the two trajectories are compared like a live turn's. Nothing is stored and nothing is sent:
 * no pending action, no effect, no provider request, no model call row. A probe of several
 * messages is sent as that many customer messages in a row.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import { type ArgDiff, compareTrajectories } from "../candidate/compare";
import { runDryTurn } from "../candidate/dry-turn";
import { candidateProfile, liveProfile } from "../candidate/profile";
import { MAX_STEPS } from "../turn";
import type { Probe } from "./mix";

type Side = {
  fingerprint: string;
  tools: string[];
  write: boolean;
  refusals: number;
  error: "timeout" | "model_error" | null;
};

export type ProbeShadowRun = {
  scenario: string;
  source: string;
  set: "new" | "previous";
  live: Side;
  candidate: Side;
  toolsAgree: boolean;
  argsAgree: boolean;
  argDiffs: ArgDiff[];
};

export type ProbeShadowReport = {
  live: string;
  candidate: string;
  runs: ProbeShadowRun[];
  summary: {
    probes: number;
    previous: number;
    toolAgreement: number | null;
    argsAgreement: number | null;
    candidateOnlyWrites: number;
    liveOnlyWrites: number;
    candidateErrors: number;
    liveErrors: number;
  };
};

/** Runs the probes through both profiles, dry. Needs a candidate (CANDIDATE_MODE not off). */
export async function runProbesInShadow({
  probes,
  userId,
}: {
  probes: { probe: Probe; set: "new" | "previous" }[];
  /** The customer the probes speak as (the eval's: the demo orders are theirs). */
  userId: string;
}): Promise<ProbeShadowReport> {
  const candidate = candidateProfile();
  if (!candidate) throw new Error("no candidate profile: set CANDIDATE_MODE to shadow or canary");
  const live = liveProfile();
  const runs: ProbeShadowRun[] = [];
  for (const { probe, set } of probes) {
    const says = Array.isArray(probe.say) ? probe.say : [probe.say];
    const messages: ModelMessage[] = says.map((content) => ({ role: "user", content }));
    // A chat id of its own per probe and profile: nothing is stored under it.
    const dry = (profile: typeof live) =>
      runDryTurn({
        profile,
        userId,
        chatId: randomUUID(),
        summary: null,
        messages,
        maxSteps: MAX_STEPS,
      });
    const l = await dry(live);
    const c = await dry(candidate);
    const compared = compareTrajectories(l.trajectory, c.trajectory);
    const side = (r: typeof l): Side => ({
      fingerprint: r.trajectory.fingerprint,
      tools: r.trajectory.calls.map((x) => x.tool),
      write: r.trajectory.proposedWrite,
      refusals: r.trajectory.refusals,
      error: r.error,
    });
    const ok = l.error === null && c.error === null;
    runs.push({
      scenario: probe.scenario,
      source: probe.source,
      set,
      live: side(l),
      candidate: side(c),
      toolsAgree: ok && compared.toolsAgree,
      argsAgree: ok && compared.argsAgree,
      argDiffs: compared.argDiffs,
    });
  }
  const n = runs.length;
  const count = (p: (r: ProbeShadowRun) => boolean) => runs.filter(p).length;
  return {
    live: live.fingerprint,
    candidate: candidate.fingerprint,
    runs,
    summary: {
      probes: n,
      previous: count((r) => r.set === "previous"),
      toolAgreement: n === 0 ? null : count((r) => r.toolsAgree) / n,
      argsAgreement: n === 0 ? null : count((r) => r.argsAgree) / n,
      candidateOnlyWrites: count((r) => r.candidate.write && !r.live.write),
      liveOnlyWrites: count((r) => r.live.write && !r.candidate.write),
      candidateErrors: count((r) => r.candidate.error !== null),
      liveErrors: count((r) => r.live.error !== null),
    },
  };
}
