/**
 * Probe sets: built by `npm run eval -- --probes` from the mix of recent turn profiles, stored
 * under the live fingerprint they were built for. A different live fingerprint (model, prompt,
 * tool schema) makes the newest set stale until it is rebuilt, and so does a drift alert on the
 * live profile raised after the set was built (live load left its corridor for
 * DRIFT_BREACH_WINDOWS windows in a row, so the mix the set was built from is no longer the
 * load); the staff pages say so.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { latestAlertAfter } from "@/db/queries/alerts";
import {
  insertProbeSet,
  latestProbeSet,
  latestProbeSets,
  recentTurnProfiles,
} from "@/db/queries/probes";
import { toolDescriptors } from "@/lib/tools/registry";
import { liveProfile } from "../candidate/profile";
import { buildProbeSet, type Probe, type ProbeCandidate, type ProbeMix, TurnProfile } from "./mix";

/** How many recent profiles the mix is read from, and how many probes a set aims at. */
export const PROFILE_SAMPLE = 1000;
export const PROBE_SET_SIZE = 40;

const writeTools = () =>
  new Set(
    toolDescriptors()
      .filter((d) => d.access === "write")
      .map((d) => d.name),
  );

export type BuiltProbeSet = {
  id: string;
  builtAt: Date;
  fingerprint: string;
  profiles: number;
  mix: ProbeMix;
  probes: Probe[];
};

/** Builds a set from the stored profiles' mix and the candidates given, and stores it. */
export async function rebuildProbeSet({
  candidates,
  size = PROBE_SET_SIZE,
  sample = PROFILE_SAMPLE,
  now = new Date(),
}: {
  candidates: ProbeCandidate[];
  size?: number;
  /** How many of the newest profiles make the mix. */
  sample?: number;
  now?: Date;
}): Promise<BuiltProbeSet> {
  const rows = await recentTurnProfiles({ limit: sample });
  // A row an older version wrote in another shape is left out, not guessed at.
  const profiles = rows.flatMap((r) => {
    const p = TurnProfile.safeParse(r.profile);
    return p.success ? [p.data] : [];
  });
  const { mix, probes } = buildProbeSet({ profiles, candidates, size, writeTools: writeTools() });
  const set: BuiltProbeSet = {
    id: randomUUID(),
    builtAt: now,
    fingerprint: liveProfile().fingerprint,
    profiles: profiles.length,
    mix,
    probes,
  };
  await insertProbeSet(set);
  return set;
}

export type ProbeStatus = {
  liveFingerprint: string;
  set: { id: string; builtAt: Date; fingerprint: string; probes: number } | null;
  /**
   * The newest set was built for another live profile. No set at all is not stale (nothing was
   * built to go stale); the docs say to build the first.
   */
  stale: boolean;
  /** Why it is stale: another live fingerprint, or live load that drifted since; null if not. */
  reason: "fingerprint" | "drift" | null;
  /** The drift alert that made it stale (its time), when that is the reason. */
  driftSince: Date | null;
};

export async function probeStatus(): Promise<ProbeStatus> {
  const live = liveProfile().fingerprint;
  const row = await latestProbeSet();
  const otherFingerprint = row !== null && row.fingerprint !== live;
  const drift =
    row && !otherFingerprint
      ? await latestAlertAfter({ kind: "drift.breach", fingerprint: live, after: row.builtAt })
      : null;
  return {
    liveFingerprint: live,
    set: row
      ? {
          id: row.id,
          builtAt: row.builtAt,
          fingerprint: row.fingerprint,
          probes: (row.probes as unknown[]).length,
        }
      : null,
    stale: otherFingerprint || drift !== null,
    reason: otherFingerprint ? "fingerprint" : drift ? "drift" : null,
    driftSince: drift?.at ?? null,
  };
}

/**
 * What a probe run tries: the newest set, and next to it the previous set's probes of scenarios
 * the newest no longer has, so a rare scenario that left the recent sample is still tried.
 */
export async function probesToRun(): Promise<{ probe: Probe; set: "new" | "previous" }[]> {
  const [latest, previous] = await latestProbeSets({ limit: 2 });
  if (!latest) return [];
  const now = (latest.probes as Probe[]).map((probe) => ({ probe, set: "new" as const }));
  const kept = new Set(now.map((p) => p.probe.scenario));
  const carried = ((previous?.probes as Probe[] | undefined) ?? [])
    .filter((p) => !kept.has(p.scenario))
    .map((probe) => ({ probe, set: "previous" as const }));
  return [...now, ...carried];
}
