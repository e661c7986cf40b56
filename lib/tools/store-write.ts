/**
 * What the three writes at the connected store (cancel, return, address change) share: the
 * confirm's commit, which records the operation under its business key and leaves the store's
 * request to the outbox, and whether the store refused it because the order had changed there
 * since the plan.
 */
import {
  getStoreOperationByKey,
  getStoreOperationByOperationId,
  insertStoreOperationIfAbsent,
  type NewStoreOperation,
  type StoreOperationRow,
  storeOperationKey,
} from "@/db/queries/store-operations";
import type { EffectRequest, StoreWriteKind } from "@/lib/effects/kinds";
import { ALREADY_CANCELLED_AT_STORE, ORDER_CHANGED_AT_STORE } from "@/lib/store/types";
import { type EffectPhase, type EffectState, effectPhase, type OutcomeNote } from "./view";
import { writeEffectOnce } from "./write-effect";

/** Where the plan saw the order at the store: its backend, its id there, its updated_at. */
export type StoreAt = { backend: "medusa"; ref: string; updatedAt: string };

/**
 * The commit for an order at the connected store. It may await only our database (it runs in
 * the confirm's transaction): it records the operation under its business key (one cancellation
 * and one return per order, one address change per action) and leaves the store's request to the
 * outbox, whose relay compares the order's updated_at with the plan's before it sends, so an
 * order that changed at the store since is not written on a stale picture.
 */
export async function commitAtStore<Result>({
  at,
  actionId,
  row,
  effect,
  toResult,
}: {
  at: StoreAt;
  actionId: string;
  /** The operation's own columns (its id, kind, who, why, the refund or the new address). */
  row: Omit<NewStoreOperation, "businessKey" | "backend" | "storeOrderRef" | "operationId">;
  effect: { kind: StoreWriteKind; extra?: Record<string, unknown> };
  toResult: (row: StoreOperationRow, createdNow: boolean) => Result;
}) {
  const businessKey = storeOperationKey(at.backend, at.ref, row.kind, actionId);
  return await writeEffectOnce({
    insert: () =>
      insertStoreOperationIfAbsent({
        ...row,
        businessKey,
        backend: at.backend,
        storeOrderRef: at.ref,
        actionId,
        operationId: actionId,
      }),
    // An address change's and an exchange's key is its action's; the others' are the order's.
    winner: () =>
      row.kind === "address" || row.kind === "exchange"
        ? getStoreOperationByOperationId({ operationId: actionId })
        : getStoreOperationByKey({ businessKey }),
    // The order's state is the store's: the relay's send checks it (updated_at), not our tables.
    compareAndSet: async () => true,
    toResult,
    effects: (saved) => [
      {
        kind: effect.kind,
        payload: {
          backend: at.backend,
          storeOrderRef: saved.storeOrderRef,
          orderId: saved.orderId,
          expectedUpdatedAt: at.updatedAt,
          ...effect.extra,
        },
      } as EffectRequest,
    ],
    moved: { code: "order_changed", message: "The order changed at the store." },
  });
}

/**
 * Whether the store refused the write because the order changed there after the plan: nothing
 * was done, and asking again makes a fresh proposal (the relay freed the order's business key).
 * The tool's card then says so (its outcome.storeChanged) instead of its usual note.
 */
export function changedAtStore(effects: readonly EffectState[], kind: StoreWriteKind): boolean {
  return refusedAtStore(effects, kind, ORDER_CHANGED_AT_STORE);
}

/**
 * Whether the store's cancel was someone else's (a merchant cancelled the order at the store, also
 * after our metadata write): the order is cancelled, but not by us, and any refund is the
 * store's own. The card says so instead of "cancelled, refund".
 */
export function cancelledByStore(effects: readonly EffectState[]): boolean {
  return refusedAtStore(effects, "store.cancel_order", ALREADY_CANCELLED_AT_STORE);
}

function refusedAtStore(effects: readonly EffectState[], kind: StoreWriteKind, code: string) {
  const write = effects.find((e) => e.kind === kind);
  return write?.status === "failed" && write.lastErrorCode === code;
}

/** How a write at the store that has not gone through colours the card's note. */
const AT_STORE_TONE: Record<Exclude<EffectPhase, "succeeded">, OutcomeNote["tone"]> = {
  processing: "neutral",
  failed: "warning",
  needs_attention: "warning",
  resolved: "neutral",
};

/**
 * The card's note while the store has not applied the write: the confirm only queued it, so
 * until the relay's request went through, the card must not say it is done (the tool's
 * outcome.atStore, by phase). Null once the store applied it (the tool's usual note follows) and
 * for an order of the built-in store (no such effect). An order changed at the store has its own
 * note (changedAtStore), checked first.
 */
export function atStoreNote(
  effects: readonly EffectState[],
  kind: StoreWriteKind,
  text: (phase: EffectPhase) => string,
): OutcomeNote | null {
  const write = effects.find((e) => e.kind === kind);
  if (!write) return null;
  const phase = effectPhase(write.status);
  return phase === "succeeded" ? null : { tone: AT_STORE_TONE[phase], text: text(phase) };
}
