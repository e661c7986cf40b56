/**
 * Every tool's pure data (its folder's meta.ts), the half of the registry that the message
 * catalogues (lib/i18n/messages.ts), the triage schema and the browser may load: registry.ts's
 * tools import the database. The registry refuses to start unless both list the same tools, in
 * the same order.
 */
import { meta as cancelOrder } from "./cancel-order/meta";
import { meta as changeDeliveryAddress } from "./change-delivery-address/meta";
import { meta as createReturnRequest } from "./create-return-request/meta";
import { meta as exchangeItems } from "./exchange-items/meta";
import { meta as getOrderStatus } from "./get-order-status/meta";
import { meta as getReturnPolicy } from "./get-return-policy/meta";

export const TOOL_METAS = [
  getOrderStatus,
  getReturnPolicy,
  createReturnRequest,
  cancelOrder,
  changeDeliveryAddress,
  exchangeItems,
] as const;

type Meta = (typeof TOOL_METAS)[number];
export type ToolName = Meta["name"];

/** The triage categories the write tools bring (one per tool that declares one). */
export type ToolTriageCategory = Extract<Meta, { triage: unknown }>["triage"]["category"];
export const TOOL_TRIAGE = TOOL_METAS.flatMap((m) => ("triage" in m ? [m.triage] : []));
