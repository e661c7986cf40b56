/**
 * Storing each live turn's anonymised profile (turn_profiles), after the turn is saved and never
 * delaying it. The orders the turn touched are classified from the tools' own reads at the store
 * (ToolContext.onOrderRead), never by asking the store again, so the profile keeps the class
 * (processing, delivered past the window, someone else's) and never the order's number. An order
 * the store did not show the customer is someone else's when our own tables know it (the
 * built-in store), else unknown: at Medusa another customer's order is "not found" to us, as it
 * is to them. An order no tool read (a call rejected before it read) is unknown.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { getOrderStatusById } from "@/db/queries/orders";
import { insertTurnProfile } from "@/db/queries/probes";
import { errorFields, log } from "@/lib/log";
import type { StoreOrder } from "@/lib/store";
import type { Locale } from "@/lib/text/language";
import { RETURN_WINDOW_DAYS } from "@/lib/tools/return-policy";
import { argShape, classifyOrder, type OrderClass, orderIdsOf, type TurnProfile } from "./mix";

export type TurnFacts = {
  userId: string;
  at: Date;
  fingerprint: string;
  lang: Locale;
  messages: number;
  messageChars: number;
  answerChars: number;
  /** Declared arguments only, with a count of the keys the model invented (turn-tools.ts). */
  calls: { tool: string; args: unknown; unknownKeys?: number }[];
  /** The orders the turn's tools read at the store, as the store answered (null: not shown). */
  orderReads: ReadonlyMap<string, StoreOrder | null>;
  outcome: TurnProfile["outcome"];
};

async function orderClass(
  orderId: string,
  reads: TurnFacts["orderReads"],
  now: Date,
): Promise<OrderClass> {
  if (!reads.has(orderId)) return "unknown";
  const order = reads.get(orderId) ?? null;
  try {
    // Not shown to the customer: someone else's order if our own tables know it.
    const foreign = !order && (await getOrderStatusById({ orderId })) !== null;
    return classifyOrder(order, { foreign, now, windowDays: RETURN_WINDOW_DAYS });
  } catch {
    return "unknown";
  }
}

/** The profile of a turn: shapes, counts and classes only. */
export async function profileOf(t: TurnFacts): Promise<TurnProfile> {
  const orders: OrderClass[] = [];
  for (const call of t.calls)
    for (const id of orderIdsOf(call.args)) orders.push(await orderClass(id, t.orderReads, t.at));
  return {
    lang: t.lang,
    messages: t.messages,
    sizes: { message: t.messageChars, answer: t.answerChars },
    tools: t.calls.map((c) => ({
      tool: c.tool,
      args: argShape(c.args),
      ...(c.unknownKeys ? { unknownKeys: c.unknownKeys } : {}),
    })),
    orders,
    outcome: t.outcome,
  };
}

const writing = new Set<Promise<void>>();

/** Resolves when every profile write started so far has finished (tests, a graceful stop). */
export async function turnProfilesSettled(): Promise<void> {
  while (writing.size > 0) await Promise.allSettled([...writing]);
}

/** Stores the turn's profile; a failure is logged, never the customer's problem. */
export function recordTurnProfile(t: TurnFacts): Promise<void> {
  const write = storeProfile(t).finally(() => writing.delete(write));
  writing.add(write);
  return write;
}

async function storeProfile(t: TurnFacts): Promise<void> {
  try {
    await insertTurnProfile({
      id: randomUUID(),
      at: t.at,
      fingerprint: t.fingerprint,
      profile: await profileOf(t),
    });
  } catch (err) {
    log().error({ err: errorFields(err) }, "could not record a turn profile");
  }
}
