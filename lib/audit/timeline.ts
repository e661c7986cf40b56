/**
 * The life of one pending action, for the audit detail page: proposed -> confirmed / cancelled /
 * expired / superseded / stale / failed, each step with its time and who took it: the assistant
 * or the customer who proposed, the customer who confirmed or cancelled, the staff member who
 * approved or rejected (a step of its own, before what the approval executed), the staff member
 * who received the return, the relay that made an effect's attempt, the system's sweeps. Built
 * from the action row and its audit events (one per transition, docs/architecture.md), whose
 * `actorId` names a staff decider.
 */
import "server-only";
import { getPeopleByIds, listAuditEventsForAction, type PersonRow } from "@/db/queries/audit";
import { getActionForStaff, type StaffActionRow } from "@/db/queries/audit-transcript";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { getOrderStatusById } from "@/db/queries/orders";
import type { AuditStatus } from "@/db/schema";
import { describeAction } from "@/lib/actions/describe";
import { REPLAN_AUDIT_TOOL } from "@/lib/actions/executor";
import type { EffectKind } from "@/lib/effects/kinds";
import { MARK_RECEIVED } from "@/lib/returns/receive";
import { getTool } from "@/lib/tools/registry";
import type { EffectState } from "@/lib/tools/view";

export type Actor =
  | { kind: "assistant"; model: string | null; promptVersion: string | null }
  | { kind: "customer"; person: PersonRow | null; id: string }
  /** A staff member: who approved, rejected or received. */
  | { kind: "staff"; person: PersonRow | null; id: string }
  /**
   * Why the server decided: the page words it (audit.action.bySystem). `approved`: it executed
   * the stored write because a staff member approved it (the step before names them).
   */
  | { kind: "system"; why: "expired" | "superseded" | "server" | "replan" | "approved" }
  /** The effects relay that made an attempt (host:pid), when its event names it. */
  | { kind: "relay"; relay: string | null };

/** An attempt at one of the action's effects (its audit event's tool is `effect:<kind>`). */
export type EffectAttempt = {
  kind: string;
  effectId: string | null;
  attempt: number | null;
  /** succeeded, reconciled, retry, failed, needs_attention (lib/effects/relay.ts). */
  outcome: string | null;
  providerRef: string | null;
};

/**
 * A step's kind: its audit status, or what the event's status alone cannot say: `proposed` (no
 * event), `revised` (the customer's edit proposed it again), `approved` (a staff member's
 * approval, its own step before what it executed), `received` and `received_again` (staff marked
 * the return's parcel received; again, when it already was).
 */
export type StepStatus =
  | AuditStatus
  | "proposed"
  | "revised"
  | "approved"
  | "received"
  | "received_again";

export type TimelineStep = {
  key: string;
  at: Date;
  actor: Actor;
  status: StepStatus;
  /** What a staff approval executed: worded as the server's doing, not the customer's confirm. */
  afterApproval: boolean;
  eventId: number | null;
  errorCode: string | null;
  /** Set on the steps that are attempts at an effect rather than decisions. */
  effect: EffectAttempt | null;
};

export type ActionLife = { action: StaffActionRow; steps: TimelineStep[]; effects: EffectRow[] };

const EFFECT_TOOL = "effect:";

/** What an effect attempt's audit event recorded (docs/api.md); fields it lacks are null. */
function effectAttempt(tool: string, result: unknown): EffectAttempt | null {
  if (!tool.startsWith(EFFECT_TOOL)) return null;
  const r = (typeof result === "object" && result !== null ? result : {}) as Record<
    string,
    unknown
  >;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    kind: tool.slice(EFFECT_TOOL.length),
    effectId: str(r.effectId),
    attempt: typeof r.attempt === "number" ? r.attempt : null,
    outcome: str(r.outcome),
    providerRef: str(r.providerRef),
  };
}

const relayOf = (result: unknown) =>
  typeof result === "object" && result !== null && "relay" in result
    ? typeof result.relay === "string"
      ? result.relay
      : null
    : null;

export async function loadActionLife({
  actionId,
}: {
  actionId: string;
}): Promise<ActionLife | null> {
  const action = await getActionForStaff({ id: actionId });
  if (!action) return null;
  const events = await listAuditEventsForAction({ actionId });
  // A staff member's step: the approver or rejecter (the event's actorId), or who received the
  // return (the receipt's event is written under the staff member's id).
  const staffIdOf = (e: (typeof events)[number]) =>
    e.tool === MARK_RECEIVED ? e.userId : e.actorId;
  const people = await getPeopleByIds({
    ids: [action.userId, ...events.flatMap((e) => staffIdOf(e) ?? [])],
  });
  const customer: Actor = {
    kind: "customer",
    id: action.userId,
    person: people.get(action.userId) ?? null,
  };
  const staff = (id: string): Actor => ({ kind: "staff", id, person: people.get(id) ?? null });
  const decider = (status: AuditStatus, errorCode: string | null): Actor =>
    // The customer's edit replaced the proposal: their doing, not a sweep's. Their confirm that
    // waited for staff is theirs whoever decided the action afterwards (decidedBy moves on).
    (status === "superseded" && errorCode === "revised") || status === "awaiting_approval"
      ? customer
      : status === "expired" || status === "superseded"
        ? { kind: "system", why: status }
        : action.decidedBy === "system"
          ? { kind: "system", why: "server" }
          : customer;
  // Proposed by the system after the store refused an earlier action (lib/actions/executor.ts
  // replanToolCall), not by the assistant: its system:replan event names the action it replaces.
  const replanned = events.some(
    (e) =>
      e.tool === REPLAN_AUDIT_TOOL &&
      typeof e.result === "object" &&
      e.result !== null &&
      "outcome" in e.result &&
      e.result.outcome === "proposal",
  );
  const proposer: Actor = { kind: "system", why: "replan" };
  const steps: TimelineStep[] = events.flatMap((e): TimelineStep[] => {
    const effect = effectAttempt(e.tool, e.result);
    const base = {
      key: `event-${e.id}`,
      at: e.status === "expired" && action.decidedAt ? action.decidedAt : e.at,
      eventId: e.id,
      errorCode: e.errorCode,
      effect,
      afterApproval: false,
    };
    if (effect)
      return [{ ...base, actor: { kind: "relay", relay: relayOf(e.result) }, status: e.status }];
    if (e.tool === REPLAN_AUDIT_TOOL) return [{ ...base, actor: proposer, status: e.status }];
    if (e.tool === MARK_RECEIVED) {
      return [
        {
          ...base,
          actor: e.userId ? staff(e.userId) : { kind: "system", why: "server" },
          status: e.status === "success" ? "received" : "received_again",
        },
      ];
    }
    if (e.status === "confirmation_required") {
      return [
        e.errorCode === "revised"
          ? { ...base, actor: customer, status: "revised" }
          : {
              ...base,
              actor: replanned
                ? proposer
                : { kind: "assistant", model: e.model, promptVersion: e.promptVersion },
              status: e.status,
            },
      ];
    }
    if (e.actorId && e.status !== "approval_rejected") {
      // A staff approval: their step, then what the server executed on it, from the one event.
      return [
        {
          ...base,
          key: `approved-${e.id}`,
          actor: staff(e.actorId),
          status: "approved",
          errorCode: null,
        },
        {
          ...base,
          actor: { kind: "system", why: "approved" },
          status: e.status,
          afterApproval: true,
        },
      ];
    }
    return [
      {
        ...base,
        actor: e.actorId ? staff(e.actorId) : decider(e.status, e.errorCode),
        status: e.status,
      },
    ];
  });
  // The proposal is always the first step, even if its audit event were missing.
  if (!steps.some((s) => s.status === "confirmation_required" || s.status === "revised")) {
    steps.unshift({
      key: "proposed",
      at: action.createdAt,
      actor: { kind: "assistant", model: action.model, promptVersion: action.promptVersion },
      status: "proposed",
      afterApproval: false,
      eventId: null,
      errorCode: null,
      effect: null,
    });
  }
  return { action, steps, effects: await listEffectsForAction({ actionId }) };
}

/**
 * For the staff page: the card's summary sentence as its tool describes it (in the page's language), and the
 * action's order when it is still processing (staff may mark it shipped to show the stale path).
 */
export async function staffActionSummary(
  action: StaffActionRow,
  lang: "en" | "ru",
  effects: readonly EffectRow[] = [],
): Promise<{
  shownAs: string | null;
  /** The note the customer's card shows now (with the refund's progress), once executed. */
  customerNote: string | null;
  processingOrder: string | null;
}> {
  const tool = getTool(action.tool);
  let shownAs: string | null = null;
  let customerNote: string | null = null;
  if (tool?.access === "write") {
    try {
      const states: EffectState[] = effects.map((e) => ({
        kind: e.kind as EffectKind,
        status: e.status,
        lastErrorCode: e.lastErrorCode,
      }));
      const described = describeAction(tool, action, lang, states);
      shownAs = described.summary;
      customerNote = described.outcome?.text ?? null;
    } catch {
      // A row this version cannot read is still shown, as JSON, below.
      shownAs = null;
    }
  }
  const order =
    action.targetType === "order" ? await getOrderStatusById({ orderId: action.targetId }) : null;
  return {
    shownAs,
    customerNote,
    processingOrder: order?.status === "processing" ? order.id : null,
  };
}
