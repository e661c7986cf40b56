/**
 * The life of one pending action, for the audit detail page: proposed -> confirmed / cancelled /
 * expired / superseded / stale / failed, each step with its time and who decided. Built from the
 * action row (decidedAt, decidedBy) and its audit events (one per transition, docs/architecture.md).
 */
import "server-only";
import { getPeopleByIds, listAuditEventsForAction, type PersonRow } from "@/db/queries/audit";
import { getActionForStaff, type StaffActionRow } from "@/db/queries/audit-transcript";
import { getOrderStatusById } from "@/db/queries/orders";
import type { AuditStatus } from "@/db/schema";
import { describeAction } from "@/lib/actions/describe";
import { getTool } from "@/lib/tools/registry";

export type Actor =
  | { kind: "assistant"; model: string | null; promptVersion: string | null }
  | { kind: "customer"; person: PersonRow | null; id: string }
  /** Why the server decided: the page words it (audit.action.bySystem). */
  | { kind: "system"; why: "expired" | "superseded" | "server" };

export type TimelineStep = {
  key: string;
  at: Date;
  actor: Actor;
  status: AuditStatus | "proposed";
  eventId: number | null;
  errorCode: string | null;
};

export type ActionLife = { action: StaffActionRow; steps: TimelineStep[] };

export async function loadActionLife({
  actionId,
}: {
  actionId: string;
}): Promise<ActionLife | null> {
  const action = await getActionForStaff({ id: actionId });
  if (!action) return null;
  const events = await listAuditEventsForAction({ actionId });
  const people = await getPeopleByIds({ ids: [action.userId] });
  const customer: Actor = {
    kind: "customer",
    id: action.userId,
    person: people.get(action.userId) ?? null,
  };
  const decider = (status: AuditStatus): Actor =>
    status === "expired" || status === "superseded"
      ? { kind: "system", why: status }
      : action.decidedBy === "system"
        ? { kind: "system", why: "server" }
        : customer;
  const steps: TimelineStep[] = events.map((e) => ({
    key: `event-${e.id}`,
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
      at: action.createdAt,
      actor: { kind: "assistant", model: action.model, promptVersion: action.promptVersion },
      status: "proposed",
      eventId: null,
      errorCode: null,
    });
  }
  return { action, steps };
}

/**
 * For the staff page: the card's summary sentence as its tool describes it (in the page's language), and the
 * action's order when it is still processing (staff may mark it shipped to show the stale path).
 */
export async function staffActionSummary(
  action: StaffActionRow,
  lang: "en" | "ru",
): Promise<{
  shownAs: string | null;
  processingOrder: string | null;
}> {
  const tool = getTool(action.tool);
  let shownAs: string | null = null;
  if (tool?.access === "write") {
    try {
      shownAs = describeAction(tool, action, lang).summary;
    } catch {
      // A row this version cannot read is still shown, as JSON, below.
      shownAs = null;
    }
  }
  const order =
    action.targetType === "order" ? await getOrderStatusById({ orderId: action.targetId }) : null;
  return { shownAs, processingOrder: order?.status === "processing" ? order.id : null };
}
