/**
 * The drift corridor per profile (docs/operations.md): every turn's signals (model_calls) in
 * windows of DRIFT_WINDOW_SECONDS, each closed window against the corridor of the
 * DRIFT_BASELINE_WINDOWS windows with turns before it (corridor.ts), and an alert once
 * DRIFT_BREACH_WINDOWS closed windows in a row left it. Everything is read from the database at
 * `now`, so any instance may evaluate, any number of times: the alert's dedupe key (the profile
 * and the first window of the run) makes it one alert.
 */
import "server-only";
import { listRecentAlerts } from "@/db/queries/alerts";
import { type TurnSignalRow, turnSignals } from "@/db/queries/drift";
import { alertView, raiseAlert } from "@/lib/alerts";
import type { DriftResponse, DriftWindowView } from "@/lib/api/drift";
import { env } from "@/lib/env";
import {
  breaches,
  corridorOf,
  type Signals,
  type ToolMix,
  type TurnSignal,
  toolMixOf,
  windowSignals,
} from "./corridor";
import { candidateProfile, liveProfile } from "./profile";

export const DECLINED_STATUSES = new Set(["cancelled", "rejected"]);

export function toTurnSignal(r: TurnSignalRow): TurnSignal {
  return {
    at: r.at,
    failed: r.error !== null || r.fallback !== null,
    refusals: r.refusals,
    declined: r.actionStatus !== null && DECLINED_STATUSES.has(r.actionStatus),
    tools: r.toolCalls,
    latencyMs: r.latencyMs,
    inputTokens: r.inputTokens,
    payloadBytes: r.payloadBytes,
  };
}

export const windowMs = () => env().DRIFT_WINDOW_SECONDS * 1000;
/** The index of the window `at` falls in (epoch-aligned, so every instance agrees). */
export const windowOf = (at: Date, ms = windowMs()) => Math.floor(at.getTime() / ms);

type ProfileWindows = DriftResponse["profiles"][number];

/** Closed windows only (the one `now` is in is still filling), per profile, oldest first. */
export async function driftReport(now = new Date()): Promise<DriftResponse> {
  const e = env();
  const ms = windowMs();
  const current = windowOf(now, ms);
  const span = e.DRIFT_BASELINE_WINDOWS + e.DRIFT_BREACH_WINDOWS;
  const rows = await turnSignals({
    from: new Date((current - span) * ms),
    to: new Date(current * ms),
  });
  const byProfile = new Map<string, Map<number, TurnSignal[]>>();
  for (const r of rows) {
    if (!r.fingerprint) continue;
    // A canary's turns are judged as the candidate's; the live profile's own turns as live.
    const windows = byProfile.get(r.fingerprint) ?? new Map<number, TurnSignal[]>();
    byProfile.set(r.fingerprint, windows);
    const w = windowOf(r.at, ms);
    const list = windows.get(w) ?? [];
    list.push(toTurnSignal(r));
    windows.set(w, list);
  }
  const live = liveProfile().fingerprint;
  const candidate = candidateProfile()?.fingerprint ?? null;
  const profiles: ProfileWindows[] = [];
  for (const [fingerprint, windows] of byProfile) {
    const ordered = [...windows.entries()].sort((a, b) => a[0] - b[0]);
    const signals: Signals[] = [];
    const mixes: ToolMix[] = [];
    const views: DriftWindowView[] = [];
    const breachedAt = new Set<number>();
    for (const [w, turns] of ordered) {
      const baselineMixes = mixes.slice(-e.DRIFT_BASELINE_WINDOWS);
      const s = windowSignals(turns, baselineMixes);
      const corridor = corridorOf(signals.slice(-e.DRIFT_BASELINE_WINDOWS), baselineMixes);
      const out = breaches(s, corridor);
      if (out.length > 0) breachedAt.add(w);
      signals.push(s);
      mixes.push(toolMixOf(turns));
      views.push({
        start: new Date(w * ms).toISOString(),
        end: new Date((w + 1) * ms).toISOString(),
        turns: turns.length,
        signals: s,
        corridor,
        breached: out,
      });
    }
    // A run ends at the newest closed window; a window without turns breaks it.
    let breachRun = 0;
    while (breachedAt.has(current - 1 - breachRun)) breachRun++;
    profiles.push({
      fingerprint,
      role: fingerprint === live ? "live" : fingerprint === candidate ? "candidate" : "other",
      windows: views.slice(-span),
      breachRun,
    });
  }
  const order = { live: 0, candidate: 1, other: 2 };
  profiles.sort((a, b) => order[a.role] - order[b.role]);
  return {
    windowSeconds: e.DRIFT_WINDOW_SECONDS,
    baselineWindows: e.DRIFT_BASELINE_WINDOWS,
    breachWindows: e.DRIFT_BREACH_WINDOWS,
    method: "median-mad",
    profiles,
    alerts: (await listRecentAlerts(20)).map(alertView),
  };
}

/**
 * Raises an alert for every profile whose breach has lasted DRIFT_BREACH_WINDOWS closed windows
 * in a row at `now`: once per run (the key is the run's first window). Returns how many it raised.
 */
export async function evaluateDrift(now = new Date()): Promise<number> {
  const e = env();
  const report = await driftReport(now);
  const current = windowOf(now);
  let raised = 0;
  for (const p of report.profiles) {
    if (p.breachRun < e.DRIFT_BREACH_WINDOWS) continue;
    const runStart = new Date((current - p.breachRun) * windowMs());
    const newest = p.windows.at(-1);
    const ok = await raiseAlert({
      kind: "drift.breach",
      dedupeKey: `drift:${p.fingerprint}:${runStart.toISOString()}`,
      fingerprint: p.fingerprint,
      at: now,
      detail: {
        role: p.role,
        since: runStart.toISOString(),
        windows: p.breachRun,
        windowSeconds: e.DRIFT_WINDOW_SECONDS,
        signals: newest?.breached ?? [],
      },
    });
    if (ok) raised++;
  }
  return raised;
}
