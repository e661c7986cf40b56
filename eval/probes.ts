/**
 * `npm run eval -- --probes`: the probe set in the mix of live load. The candidates are the
 * eval's own utterances (the utterance table and the held-out set) against the demo orders, each
 * classified the way a live turn's profile is (lib/chat/probes/mix.ts): nothing a customer typed
 * can reach a probe, because the only texts here are the tables'.
 */
import { DEMO_ORDERS } from "@/db/seed-data";
import { classifyOrder, type OrderClass, type ProbeCandidate } from "@/lib/chat/probes/mix";
import { RETURN_WINDOW_DAYS } from "@/lib/tools/return-policy";
import { HELDOUT } from "./heldout.table";
import { type Row, UTTERANCES } from "./utterances.table";

const DAY_MS = 86_400_000;
/** The eval talks as Anna: her orders are hers, Boris's are foreign. */
const EVAL_CUSTOMER = "anna";

/** A demo order's class as Anna sees it; a number that is no demo order is unknown. */
export function demoOrderClass(orderId: string, now = new Date()): OrderClass {
  const o = DEMO_ORDERS.find((d) => d.id === orderId);
  if (!o || o.owner !== EVAL_CUSTOMER)
    return classifyOrder(null, { foreign: !!o, now, windowDays: RETURN_WINDOW_DAYS });
  const deliveredAt =
    o.deliveredDaysAgo === undefined ? null : new Date(now.getTime() - o.deliveredDaysAgo * DAY_MS);
  return classifyOrder(
    { status: o.status, deliveredAt },
    { foreign: false, now, windowDays: RETURN_WINDOW_DAYS },
  );
}

/** The tools a row expects, in the order a careful agent calls them, and the orders it names. */
function expected(row: Row): { tools: string[]; orderIds: string[] } {
  const e = row.expect;
  switch (e.class) {
    case "get_order_status":
      return { tools: e.orderIds.map(() => "get_order_status"), orderIds: e.orderIds };
    case "get_return_policy":
      return { tools: ["get_return_policy"], orderIds: [] };
    case "create_return_request":
    case "cancel_order":
    case "change_delivery_address":
      return { tools: [e.class], orderIds: [e.args.orderId] };
    case "answer_and_propose":
      return {
        tools: [
          ...e.orderIds.map(() => "get_order_status"),
          ...(e.policy ? ["get_return_policy"] : []),
          e.write.class,
        ],
        orderIds: [...e.orderIds, String(e.write.args.orderId)],
      };
    default:
      return { tools: [], orderIds: [] };
  }
}

const TABLES = { utterances: UTTERANCES, heldout: HELDOUT } as const;

export function probeCandidates(now = new Date()): ProbeCandidate[] {
  return Object.entries(TABLES).flatMap(([table, rows]) =>
    rows.map((row, i) => {
      const { tools, orderIds } = expected(row);
      return {
        source: `${table}:${i}`,
        say: row.say,
        lang: row.lang,
        tools,
        orders: orderIds.map((id) => demoOrderClass(id, now)),
      };
    }),
  );
}

/** The table row a probe came from (so the eval judges it as that row is judged). */
export function rowOfProbe(source: string): Row | null {
  const [table, index] = source.split(":");
  const rows = TABLES[table as keyof typeof TABLES] as readonly Row[] | undefined;
  return rows?.[Number(index)] ?? null;
}
