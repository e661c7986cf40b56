import type { ShipOrderResponse } from "@/lib/api/schemas";
import { requireStaff } from "@/lib/auth/session";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { markOrderShipped } from "@/lib/orders/ship";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/orders/{id}/ship (no body): marks a processing order shipped (audited) and
 * returns {"order":{"id","status","version","shippedAt"}}. 404 for an unknown order, 409
 * conflict when it is not processing. Staff only (a customer gets 403).
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  // The answer is the contract's shape (checked here, at the boundary: lib/orders sits below
  // lib/api, which the tools' test tables, calling markOrderShipped, must not reach).
  const body: ShipOrderResponse = await markOrderShipped({ orderId: id, staffId: staff.id });
  return json(body, { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
