/**
 * The drift corridor (GET /api/staff/drift), alerts and the canary's kill switch: shapes declared
 * once here for the routes, the OpenAPI document and the typed client. Client-safe.
 */
import { z } from "zod";

export const DRIFT_SIGNALS = [
  "errorRate",
  "refusalShare",
  "declinedWriteShare",
  "toolCallShare",
  "latencyP50Ms",
  "latencyP95Ms",
  "contextP50Tokens",
  "contextP95Tokens",
  "payloadP50Bytes",
  "payloadP95Bytes",
  "toolMixDivergence",
] as const;
export type DriftSignal = (typeof DRIFT_SIGNALS)[number];

/** One field per signal (an object, not a record, so the OpenAPI document names each). */
function perSignal<T extends z.ZodType>(value: T) {
  return z.object({
    errorRate: value,
    refusalShare: value,
    declinedWriteShare: value,
    toolCallShare: value,
    latencyP50Ms: value,
    latencyP95Ms: value,
    contextP50Tokens: value,
    contextP95Tokens: value,
    payloadP50Bytes: value,
    payloadP95Bytes: value,
    toolMixDivergence: value,
  });
}
const Signals = perSignal(z.number().nullable());

export const DriftWindowView = z
  .object({
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
    turns: z.number().int(),
    signals: Signals.meta({
      description:
        "Shares from 0 to 1; latency in milliseconds; context in input tokens; payload in bytes of the turn's tool arguments and results (JSON); toolMixDivergence is the Jensen-Shannon divergence in bits (0 to 1) of the window's tool calls from the baseline windows' pooled. null where the window has no figure (no tokens reported, no tool calls, too short a baseline).",
    }),
    corridor: perSignal(z.object({ low: z.number(), high: z.number() }).nullable())
      .nullable()
      .meta({
        description:
          "From the DRIFT_BASELINE_WINDOWS windows with turns before this one: median ± 3 × 1.4826 × MAD, at least ± a floor per signal. toolMixDivergence is one-sided (low 0): the median + 3 × 1.4826 × MAD of each baseline window's divergence from the others pooled, at least median + 0.05. null with fewer than 3 such windows.",
      }),
    breached: z
      .array(z.enum(DRIFT_SIGNALS))
      .meta({ description: "The signals outside their corridor in this window." }),
  })
  .meta({ id: "DriftWindow" });
export type DriftWindowView = z.infer<typeof DriftWindowView>;

export const AlertView = z
  .object({
    id: z.string(),
    kind: z.string().meta({ description: "drift.breach or candidate.rollback." }),
    at: z.iso.datetime({ offset: true }),
    fingerprint: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()),
    acknowledged: z
      .object({ at: z.iso.datetime({ offset: true }), by: z.string() })
      .nullable()
      .meta({
        description: "null until a staff member acknowledges it (its banner shows until then).",
      }),
  })
  .meta({ id: "Alert" });
export type AlertView = z.infer<typeof AlertView>;

export const DriftResponse = z
  .object({
    windowSeconds: z.number().int(),
    baselineWindows: z.number().int(),
    breachWindows: z.number().int(),
    method: z.literal("median-mad").meta({
      description: "The corridor: median ± 3 × 1.4826 × MAD of the baseline windows, with a floor.",
    }),
    profiles: z.array(
      z.object({
        fingerprint: z.string(),
        role: z.enum(["live", "candidate", "other"]),
        windows: z.array(DriftWindowView).meta({ description: "Closed windows, oldest first." }),
        breachRun: z.number().int().meta({
          description: "How many closed windows in a row, up to the newest, left the corridor.",
        }),
      }),
    ),
    alerts: z.array(AlertView).meta({ description: "The newest alerts, acknowledged or not." }),
  })
  .meta({ id: "DriftReport" });
export type DriftResponse = z.infer<typeof DriftResponse>;

export const RollbackBody = z
  .strictObject({
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .meta({ id: "CandidateRollbackRequest" });

export const CandidateRollbackView = z
  .object({
    at: z.iso.datetime({ offset: true }),
    reason: z.string(),
    by: z
      .string()
      .nullable()
      .meta({ description: "The staff member's id; null for an automatic rollback." }),
  })
  .meta({ id: "CandidateRollback" });
