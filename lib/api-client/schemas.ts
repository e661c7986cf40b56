/**
 * What the typed client accepts, for the answers the browser's chat schemas
 * (lib/chat-client/schemas.ts) do not already cover. Client-safe (no database imports), and
 * lenient where a field is only displayed: a richer server must not break an older client.
 * The authoritative shapes are lib/api/schemas.ts (the OpenAPI document).
 */
import { z } from "zod";
import { CandidateReportResponse } from "@/lib/api/candidate";
import { AlertView, DriftResponse } from "@/lib/api/drift";
import { STORED_TRIAGE } from "@/lib/api/triage";
import {
  CancelResponseSchema as CardCancelResponse,
  ConfirmResponseSchema as CardConfirmResponse,
  HandoffSchema,
  PendingActionSchema,
} from "@/lib/chat-client/schemas";

export const HealthSchema = z.looseObject({
  status: z.string(),
  db: z.string(),
  model: z.looseObject({ provider: z.string(), id: z.string() }),
});

export const SignInSchema = z.looseObject({
  user: z.looseObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.string().optional(),
    /** The interface language saved on the account, when one was picked. */
    locale: z.string().nullish(),
  }),
});

/** The audit record a decision left (its status and time); null from an older server. */
export const DecisionAuditSchema = z.object({ status: z.string(), at: z.string() });
export type DecisionAuditInfo = z.infer<typeof DecisionAuditSchema>;

export const ConfirmResponseSchema = CardConfirmResponse.extend({
  audit: DecisionAuditSchema.nullish().transform((v) => v ?? null),
});
export const CancelResponseSchema = CardCancelResponse.extend({
  audit: DecisionAuditSchema.nullish().transform((v) => v ?? null),
});
export type ConfirmResponse = z.output<typeof ConfirmResponseSchema>;
export type CancelResponse = z.output<typeof CancelResponseSchema>;

/** GET /api/actions/{id}: the action (as a card shows it) and its external effects. */
export const EffectSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastErrorCode: z.string().nullable(),
  providerRef: z.string().nullable(),
  updatedAt: z.string(),
});
export const ActionDetailSchema = z.intersection(
  PendingActionSchema,
  z.object({ effects: z.array(EffectSchema) }),
);
export type ActionDetail = z.output<typeof ActionDetailSchema>;

export const AuditEventSchema = z.looseObject({
  id: z.string(),
  at: z.string(),
  tool: z.string(),
  status: z.string(),
  chatId: z.string().nullable(),
  actionId: z.string().nullable(),
  errorCode: z.string().nullable(),
});
export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  nextCursor: z.string().nullable(),
});

export const TriageResponseSchema = z.object({ triage: STORED_TRIAGE });
export type TriageResponse = z.output<typeof TriageResponseSchema>;

/** GET /api/staff/handoffs (staff only). */
export const HandoffQueueSchema = z.looseObject({
  handoffs: z.array(
    HandoffSchema.extend({
      chatId: z.string(),
      chatTitle: z.string().nullable(),
      customer: z.looseObject({ name: z.string(), email: z.string() }).nullable(),
    }),
  ),
});

/** POST /api/staff/chats/{id}/messages (staff only): the stored staff message and the handoff. */
export const StaffReplySchema = z.looseObject({
  message: z.looseObject({ id: z.string(), role: z.string() }),
  handoff: HandoffSchema,
});

/** POST /api/staff/chats/{id}/release (staff only). */
export const ReleaseSchema = z.looseObject({ handoff: z.null() });
/** GET /api/staff/approvals: actions awaiting staff approval. */
export const ApprovalsSchema = z.object({
  approvals: z.array(
    z.object({
      action: PendingActionSchema,
      customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      confirmedAt: z.string(),
    }),
  ),
});
/** POST /api/staff/actions/{id}/approve: the action as executed (or null result if not). */
export const ApproveResponseSchema = z.object({
  action: PendingActionSchema,
  result: z.looseObject({ createdNow: z.boolean() }).nullable(),
});
export const RejectResponseSchema = z.object({ action: PendingActionSchema });

/** GET /api/staff/candidate (staff only): the candidate profile in shadow. */
export const CandidateReportSchema = CandidateReportResponse;
/** GET /api/staff/drift (staff only): windows, corridors, breaches and alerts. */
export const DriftReportSchema = DriftResponse;
/** POST /api/staff/alerts/{id}/acknowledge (staff only). */
export const AcknowledgeAlertSchema = z.object({ alert: AlertView });
