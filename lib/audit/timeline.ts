/**
 * The life of one pending action, for the audit detail page: proposed -> confirmed / cancelled /
 * expired / superseded / stale / failed, each step with its time and who decided. Built from the
 * action row (decidedAt, decidedBy) and its audit events (one per transition, docs/architecture.md).
 */
import "server-only";
import { getPeopleByIds, listAuditEventsForAction, type PersonRow } from "@/db/queries/audit";
import { getActionForStaff, type StaffActionRow } from "@/db/queries/audit-transcript";
import type { AuditStatus } from "@/db/schema";

export type Actor =
  | { kind: "assistant"; model: string | null; promptVersion: string | null }
  | { kind: "customer"; person: PersonRow | null; id: string }
  | { kind: "system"; why: string };

export type TimelineStep = {
  key: string;
  label: string;
  at: Date;
  actor: Actor;
  status: AuditStatus | "proposed";
  eventId: number | null;
  errorCode: string | null;
};

export type ActionLife = { action: StaffActionRow; steps: TimelineStep[] };

const LABEL: Partial<Record<AuditStatus, string>> = {
  confirmation_required: "Proposed",
  success: "Confirmed and executed",
  technical_error: "Confirmed, but the write failed",
  cancelled: "Cancelled",
  expired: "Expired",
  superseded: "Superseded",
  stale: "Confirm refused: the order had changed",
  business_error: "Refused by policy",
  rejected: "Rejected",
  timeout: "Timed out",
};

const SYSTEM_WHY: Partial<Record<AuditStatus, string>> = {
  expired: "nobody confirmed before the deadline",
  superseded: "a newer proposal or a new chat replaced it",
};

export function loadActionLife({ actionId }: { actionId: string }): ActionLife | null {
  const action = getActionForStaff({ id: actionId });
  if (!action) return null;
  const events = listAuditEventsForAction({ actionId });
  const people = getPeopleByIds({ ids: [action.userId] });
  const customer: Actor = {
    kind: "customer",
    id: action.userId,
    person: people.get(action.userId) ?? null,
  };
  const decider = (status: AuditStatus): Actor =>
    action.decidedBy === "system" || SYSTEM_WHY[status]
      ? { kind: "system", why: SYSTEM_WHY[status] ?? "decided by the server" }
      : customer;
  const steps: TimelineStep[] = events.map((e) => ({
    key: `event-${e.id}`,
    label: LABEL[e.status] ?? e.status,
    at: e.status === "expired" && action.decidedAt ? action.decidedAt : e.at,
    actor:
      e.status === "confirmation_required"
        ? { kind: "assistant", model: e.model, promptVersion: e.promptVersion }
        : decider(e.status),
    status: e.status,
    eventId: e.id,
    errorCode: e.errorCode,
  }));
  // The proposal is always the first step, even if its audit event were missing.
  if (!steps.some((s) => s.status === "confirmation_required")) {
    steps.unshift({
      key: "proposed",
      label: "Proposed",
      at: action.createdAt,
      actor: { kind: "assistant", model: action.model, promptVersion: action.promptVersion },
      status: "proposed",
      eventId: null,
      errorCode: null,
    });
  }
  return { action, steps };
}
