/**
 * GET /api/staff/candidate: how the candidate profile compares with the live one in shadow.
 * Client-safe (no database imports): the OpenAPI document (lib/api/schemas.ts) and the typed
 * client (lib/api-client) both use this one declaration.
 */
import { z } from "zod";
import { CandidateRollbackView } from "./drift";

const ProfileView = z
  .object({
    fingerprint: z.string().meta({
      description:
        "sha256 (first 16 hex digits) of the provider, the model, the prompt version and every advertised tool's JSON schema.",
    }),
    provider: z.enum(["offline", "openai"]),
    model: z.string(),
    promptVersion: z.string(),
  })
  .meta({ id: "ModelProfile" });

/** Both sides of one figure. */
const Pair = z.object({ live: z.number(), candidate: z.number() });

export const CandidateComparisonView = z
  .object({
    id: z.string(),
    at: z.iso.datetime({ offset: true }),
    chatId: z.string(),
    messageId: z.string().meta({ description: "The live turn's assistant message." }),
    liveFingerprint: z.string(),
    candidateFingerprint: z.string(),
    tools: z.object({ live: z.array(z.string()), candidate: z.array(z.string()) }),
    toolsAgree: z.boolean(),
    argsAgree: z.boolean(),
    argDiffs: z
      .array(z.object({ call: z.number().int(), tool: z.string(), fields: z.array(z.string()) }))
      .meta({
        description:
          "Per call of the same tool at the same place: the argument fields that differ (paths, never values).",
      }),
    writes: z.object({ live: z.boolean(), candidate: z.boolean() }),
    refusals: Pair,
    answerChars: Pair,
    latencyMs: Pair,
    tokens: z.object({ live: z.number().nullable(), candidate: z.number().nullable() }),
    candidateError: z.enum(["model_error", "timeout"]).nullable(),
  })
  .meta({ id: "CandidateComparison" });
export type CandidateComparisonView = z.infer<typeof CandidateComparisonView>;

export const CandidateReportResponse = z
  .object({
    mode: z.enum(["off", "shadow", "canary"]),
    share: z.number().min(0).max(1),
    since: z.iso.datetime({ offset: true }).nullable().meta({
      description:
        "When this instance first saw the current candidate fingerprint (its canary's start); null while CANDIDATE_MODE is off.",
    }),
    live: ProfileView,
    candidate: ProfileView.nullable().meta({ description: "null while CANDIDATE_MODE is off." }),
    comparison: z
      .object({
        turns: z.number().int(),
        toolAgreement: z.number().nullable().meta({
          description: "Share of turns with the same tools in the same order; null with no turns.",
        }),
        argsAgreement: z
          .number()
          .nullable()
          .meta({ description: "Share of turns with the same tools and deep-equal arguments." }),
        liveWrites: z.number().int(),
        candidateWrites: z.number().int(),
        candidateOnlyWrites: z.number().int(),
        liveOnlyWrites: z.number().int(),
        liveRefusals: z.number().int(),
        candidateRefusals: z.number().int(),
        candidateErrors: z.number().int(),
        latencyRatio: z.number().nullable().meta({
          description:
            "Candidate latency over live latency, summed over the turns the candidate answered; null without any.",
        }),
        tokensRatio: z.number().nullable(),
        latencyP50Ms: z
          .object({ live: z.number().nullable(), candidate: z.number().nullable() })
          .meta({
            description:
              "Median latency: in shadow over the newest 1000 comparisons the candidate answered; in canary over the canary's turns and the live profile's since `since`.",
          }),
      })
      .meta({
        description:
          "Over every comparison of the current candidate's fingerprint (of every candidate while none is configured).",
      }),
    recent: z.array(CandidateComparisonView).meta({ description: "The newest 20, newest first." }),
    canary: z
      .object({
        turns: z.number().int(),
        fallbacks: z.number().int().meta({
          description: "Canary turns the candidate failed and the live profile answered.",
        }),
      })
      .meta({ description: "The canary's own turns since `since` (0 outside canary mode)." }),
    rollback: CandidateRollbackView.nullable().meta({
      description:
        "The current candidate's rollback (automatic or by staff); null while it is not rolled back. After it, every turn is live.",
    }),
  })
  .meta({ id: "CandidateReport" });
export type CandidateReportResponse = z.infer<typeof CandidateReportResponse>;
