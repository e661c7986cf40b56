/**
 * Staff: mark a processing order shipped. The warehouse does this in a real store; here staff can
 * do it by hand so the demo can show a shipment arriving between a cancellation's plan and its
 * Confirm (the action becomes `stale`). A conditional update plus one audit event, in one
 * transaction, like every other change.
 */
import "server-only";
import { getOrderStatusById, shipOrderIfProcessing } from "@/db/queries/orders";
import { writeTransaction } from "@/db/queries/tx";
import { recordAudit } from "@/lib/audit-log/record";
import { AppError } from "@/lib/errors";

/** The audit's name for this staff operation (it is not a tool the model can call). */
export const MARK_SHIPPED = "staff:mark_order_shipped";

export async function markOrderShipped({
  orderId,
  staffId,
  now = new Date(),
}: {
  orderId: string;
  staffId: string;
  now?: Date;
}) {
  const shipped = await writeTransaction(async () => {
    const current = await getOrderStatusById({ orderId });
    if (!current) return undefined;
    const row = await shipOrderIfProcessing({ orderId, now });
    await recordAudit({
      at: now,
      tool: MARK_SHIPPED,
      access: "write",
      status: row ? "success" : "business_error",
      errorCode: row ? null : "not_processing",
      userId: staffId,
      arguments: { orderId },
      result: row
        ? { orderId, status: row.status, version: row.version }
        : { orderId, status: current.status },
    });
    return row;
  });
  if (shipped === undefined) throw new AppError("not_found", "No such order.");
  if (!shipped) {
    throw new AppError("conflict", "Only an order that is still processing can be marked shipped.");
  }
  return {
    order: {
      id: shipped.id,
      status: "shipped" as const,
      version: shipped.version,
      shippedAt: (shipped.shippedAt ?? now).toISOString(),
    },
  };
}
