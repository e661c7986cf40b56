/**
 * The fresh plan after the store refused a confirmed write because the order changed there
 * (`order_changed_at_store`): the spec's "nothing is sent; the customer is told, and a fresh plan
 * is proposed".
 *
 * Why an outbox effect (`action.replan`) and not a call from the relay: planning is the tools'
 * work (validation, the store's order now, the policy) and storing a proposal is the action
 * core's, both ABOVE lib/effects, which must not import them. And it must happen exactly once per
 * refusal, whichever relay records it and whatever crashes: the follow-up row is written in the
 * same transaction as the refusal (one per action and kind, like the refund mails), and the relay
 * carries it out with its usual claim, lease, retry and lookup. What carries it out is registered
 * here by the composition root (lib/startup.ts) from the layer that may plan and talk to the chat
 * (lib/chat/replan.ts): dependency injection, so the import graph still points downwards.
 *
 * The executor is idempotent on its own: the fresh action's id and its chat message's id are
 * derived from the refused action, and both are stored in one transaction, so a second attempt
 * (a relay whose lease lapsed, a restart) finds them by lookup or loses on the primary key.
 */
import { ORDER_CHANGED_AT_STORE } from "@/lib/store/types";
import { type EffectRequest, isStoreWrite, type ReplanPayload } from "./kinds";
import type { EffectRef, LookupOutcome, SendOutcome } from "./providers/types";

export type Replanner = {
  /** Plans again and tells the chat; `succeeded` with the fresh action's id (or the message's). */
  propose(payload: ReplanPayload, ref: EffectRef): Promise<SendOutcome>;
  /** Whether an earlier attempt already did (the chat's message exists). */
  find(payload: ReplanPayload, ref: EffectRef): Promise<LookupOutcome>;
};

/** On globalThis, like the relay's bell: Next.js may load this module once per route bundle. */
const g = globalThis as unknown as { __returnsDeskReplanner?: Replanner };

/** The composition root registers the executor (null removes it: tests). */
export function setReplanner(r: Replanner | null): void {
  g.__returnsDeskReplanner = r ?? undefined;
}

/** The registered executor; none means `action.replan` waits (retried, then staff's queue). */
export function replanner(): Replanner | null {
  return g.__returnsDeskReplanner ?? null;
}

/**
 * The follow-up of a settled effect: a store write refused because the order changed at the store
 * gets its fresh plan. Stored by the relay inside the transaction that records the refusal.
 */
export function replanAfter(
  effect: { id: string; kind: string; status: string; lastErrorCode: string | null },
  tool: string | null,
): EffectRequest[] {
  if (
    !tool ||
    !isStoreWrite(effect.kind) ||
    effect.status !== "failed" ||
    effect.lastErrorCode !== ORDER_CHANGED_AT_STORE
  )
    return [];
  return [
    {
      kind: "action.replan",
      payload: { tool, refusedEffectId: effect.id, code: ORDER_CHANGED_AT_STORE },
    },
  ];
}
