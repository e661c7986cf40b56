/**
 * Staff: the parcel of a return arrived. One transaction: the conditional update that marks it
 * received (the first call wins, every later or racing one finds it received), the return's
 * refund into the effects outbox (one per return: UNIQUE action id + kind, idempotency key
 * `rd-<operation id>-payment.refund`, its own, never shared with another effect), and one audit
 * event with who and when. The relay carries the refund out after COMMIT, and mails the
 * customer when it succeeds or fails (lib/effects/relay.ts).
 */
import "server-only";
import {
  getOrderPaymentRef,
  getReturnByActionId,
  getReturnRequestById,
  getReturnWithRefund,
  listReturnsWithRefund,
  markReturnReceivedIfNot,
  type ReturnWithRefund,
} from "@/db/queries/return-receipts";
import {
  getStoreOperationById,
  getStoreReturnByActionId,
  getStoreReturnWithRefund,
  listStoreReturnsWithRefund,
  markStoreReturnReceivedIfNot,
  type StoreOperationRow,
} from "@/db/queries/store-operations";
import { writeTransaction } from "@/db/queries/tx";
import type { StaffReturn } from "@/lib/api/schemas";
import { recordAudit } from "@/lib/audit-log/record";
import { enqueueFollowUps } from "@/lib/effects/outbox";
import { wakeRelay } from "@/lib/effects/signal";
import { AppError } from "@/lib/errors";
import { effectPhase } from "@/lib/tools/view";

/** The audit's name for this staff operation (not a tool the model can call). */
export const MARK_RECEIVED = "staff:mark_return_received";

/** What the staff view needs of a return, ours or one at the store. */
type ReturnView = Pick<
  ReturnWithRefund,
  | "id"
  | "orderId"
  | "actionId"
  | "receivedAt"
  | "receivedBy"
  | "refundAmountMinor"
  | "refundCurrency"
  | "refundStatus"
  | "refundEffectId"
>;

/** requested → received → refunded, from the row and its refund effect. */
export function returnState(r: ReturnView): StaffReturn["state"] {
  if (!r.receivedAt) return "requested";
  const phase = r.refundStatus ? effectPhase(r.refundStatus) : null;
  return phase === "succeeded" || phase === "resolved" ? "refunded" : "received";
}

export function toStaffReturn(r: ReturnView): StaffReturn {
  return {
    id: r.id,
    orderId: r.orderId,
    actionId: r.actionId,
    state: returnState(r),
    receivedAt: r.receivedAt?.toISOString() ?? null,
    receivedBy: r.receivedBy,
    refund: {
      amount: r.refundAmountMinor,
      currency: r.refundCurrency,
      status: r.refundStatus,
      effectId: r.refundEffectId,
    },
  };
}

export async function markReturnReceived({
  requestId,
  staffId,
  now = new Date(),
}: {
  requestId: string;
  staffId: string;
  now?: Date;
}): Promise<{ return: StaffReturn }> {
  const outcome = await writeTransaction(async () => {
    const current = await getReturnRequestById({ id: requestId });
    if (!current) {
      const atStore = await getStoreOperationById({ id: requestId });
      if (atStore?.kind !== "return") return { kind: "not_found" as const };
      return await receiveAtStore(atStore, staffId, now);
    }
    const row = await markReturnReceivedIfNot({ id: requestId, staffId, now });
    const scheduled = row
      ? await enqueueFollowUps({
          // The refund belongs to the return's operation (its action's id when a chat made it).
          actionId: row.operationId,
          effects: [
            {
              kind: "payment.refund",
              payload: {
                orderId: row.orderId,
                paymentRef: await getOrderPaymentRef({ orderId: row.orderId }),
                amount: row.refundAmountMinor,
                currency: row.refundCurrency,
              },
            },
          ],
          now,
        })
      : // Stryker disable next-line ArrayDeclaration: read only when a row was marked (the audit's refund)
        [];
    await recordAudit({
      at: now,
      tool: MARK_RECEIVED,
      access: "write",
      status: row ? "success" : "business_error",
      errorCode: row ? null : "already_received",
      userId: staffId,
      actionId: current.actionId,
      arguments: { requestId },
      result: row
        ? {
            requestId,
            orderId: row.orderId,
            receivedAt: now.toISOString(),
            receivedBy: staffId,
            refund: scheduled,
          }
        : {
            requestId,
            receivedAt: current.receivedAt?.toISOString() ?? null,
            receivedBy: current.receivedBy,
          },
    });
    return { kind: row ? ("received" as const) : ("already" as const), current };
  });
  if (outcome.kind === "not_found") throw new AppError("not_found", "No such return request.");
  const view =
    (await getReturnWithRefund({ id: requestId })) ??
    (await getStoreReturnWithRefund({ id: requestId }));
  if (outcome.kind === "already") {
    throw new AppError("conflict", "This return was already marked received.", {
      details: view ? { return: toStaffReturn(view) } : undefined,
    });
  }
  // Committed: the relay starts on the refund now; the answer does not wait for the provider.
  wakeRelay();
  return { return: toStaffReturn(view!) };
}

/**
 * A return at the connected store: marked received here (the first call wins, as for ours), and
 * its receipt and refund at the store go into the outbox as one effect, `store.receive_return`,
 * under the return's operation id: the relay receives the return there and refunds its amount of
 * the captured payment (docs/stores.md). No refund of ours is sent.
 */
async function receiveAtStore(current: StoreOperationRow, staffId: string, now: Date) {
  const row = await markStoreReturnReceivedIfNot({ id: current.id, staffId, now });
  const scheduled = row
    ? await enqueueFollowUps({
        actionId: row.operationId,
        effects: [
          {
            kind: "store.receive_return",
            payload: {
              backend: "medusa",
              storeOrderRef: row.storeOrderRef,
              orderId: row.orderId,
              returnId: row.id,
              amount: row.refundAmountMinor,
              currency: row.refundCurrency,
            },
          },
        ],
        now,
      })
    : // Stryker disable next-line ArrayDeclaration: read only when a row was marked (the audit's refund)
      [];
  await recordAudit({
    at: now,
    tool: MARK_RECEIVED,
    access: "write",
    status: row ? "success" : "business_error",
    errorCode: row ? null : "already_received",
    userId: staffId,
    actionId: current.actionId,
    arguments: { requestId: current.id },
    result: row
      ? {
          requestId: current.id,
          orderId: row.orderId,
          store: { backend: row.backend, orderRef: row.storeOrderRef },
          receivedAt: now.toISOString(),
          receivedBy: staffId,
          refund: scheduled,
        }
      : {
          requestId: current.id,
          receivedAt: current.receivedAt?.toISOString() ?? null,
          receivedBy: current.receivedBy,
        },
  });
  return { kind: row ? ("received" as const) : ("already" as const), current };
}

/** The staff returns list: newest first, each with its state and refund (ours and the store's). */
export async function listStaffReturns({
  limit = 200,
}: {
  limit?: number;
} = {}): Promise<StaffReturn[]> {
  // Stryker disable next-line ObjectLiteral: the slice below cuts the merged list to the limit
  const ours = await listReturnsWithRefund({ limit });
  // Stryker disable next-line ObjectLiteral: the slice below cuts the merged list to the limit
  const atStore = await listStoreReturnsWithRefund({ limit });
  return [...ours, ...atStore]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, limit)
    .map(toStaffReturn);
}

/** The return a chat action created, for the staff action page (null for other actions). */
export async function staffReturnOfAction(actionId: string): Promise<StaffReturn | null> {
  const row =
    (await getReturnByActionId({ actionId })) ?? (await getStoreReturnByActionId({ actionId }));
  return row ? toStaffReturn(row) : null;
}
