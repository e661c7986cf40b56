/**
 * Shared set-up for the action-core tests: a fresh seeded SQLite file, the demo customers, chats,
 * and readers for what a client or staff member would observe (audit rows, return rows).
 */
import { randomUUID } from "node:crypto";
import { asc, count, eq } from "drizzle-orm";
import { type Db, one } from "@/db";
import {
  auditEvents,
  chats,
  orderItems,
  orders,
  pendingActions,
  returnRequests,
  user,
} from "@/db/schema";
import type { PendingActionDto } from "@/lib/actions/dto";
import { executeToolCall, type ToolCallOutcome } from "@/lib/actions/executor";
import { AppError } from "@/lib/errors";
// Renamed: Biome would otherwise take the "use" prefix for a React hook.
import { useTestDatabase as openTestDatabase } from "../../helpers/db";

export const DAY = 86_400_000;

export type Core = { db: Db; file: string; anna: string; boris: string; staff: string };

export async function setupCore(env?: Record<string, string>): Promise<Core> {
  const { db, file } = await openTestDatabase({ env });
  const idOf = async (email: string) =>
    (await db.select({ id: user.id }).from(user).where(eq(user.email, email)).then(one)).id;
  return {
    db,
    file,
    anna: await idOf("anna@example.com"),
    boris: await idOf("boris@example.com"),
    staff: await idOf("staff@example.com"),
  };
}

export async function newChat(db: Db, userId: string, now = new Date()): Promise<string> {
  const id = randomUUID();
  await db.insert(chats).values({ id, userId, createdAt: now, updatedAt: now });
  return id;
}

/**
 * A delivered order of the user's, delivered two days ago and so returnable, with one item and
 * a card payment a refund goes back to. `id` must be unused (tests keep a counter).
 */
export async function insertDeliveredOrder(
  db: Db,
  { id, userId, total }: { id: string; userId: string; total: number },
): Promise<string> {
  const now = new Date();
  await db.insert(orders).values({
    id,
    userId,
    status: "delivered",
    placedAt: new Date(now.getTime() - 10 * DAY),
    deliveredAt: new Date(now.getTime() - 2 * DAY),
    totalMinor: total,
    currency: "EUR",
    paymentMethod: "Visa •••• 4242",
    paymentRef: `pi_test${id}`,
    version: 1,
    updatedAt: now,
  });
  await db
    .insert(orderItems)
    .values({ orderId: id, name: "Lamp", quantity: 1, unitPriceMinor: total });
  return id;
}

export function auditRows(db: Db) {
  return db.select().from(auditEvents).orderBy(asc(auditEvents.id));
}

export async function auditFor(db: Db, actionId: string) {
  return (await auditRows(db)).filter((e) => e.actionId === actionId);
}

export async function returnsFor(db: Db, orderId: string) {
  return await db.select().from(returnRequests).where(eq(returnRequests.orderId, orderId));
}

export async function orderRow(db: Db, orderId: string) {
  return one(await db.select().from(orders).where(eq(orders.id, orderId)));
}

export async function actionRow(db: Db, id: string) {
  return one(await db.select().from(pendingActions).where(eq(pendingActions.id, id)));
}

export async function rowCounts(db: Db) {
  const n = async (
    t: typeof orders | typeof returnRequests | typeof pendingActions | typeof auditEvents,
  ) => one(await db.select({ n: count() }).from(t)).n;
  return {
    orders: await n(orders),
    returnRequests: await n(returnRequests),
    pendingActions: await n(pendingActions),
    auditEvents: await n(auditEvents),
  };
}

/** Asks for a return the way the chat turn does and expects a confirm card. */
export function propose(
  userId: string,
  chatId: string,
  args: Record<string, unknown>,
  extra: { now?: Date; toolCallId?: string } = {},
): Promise<PendingActionDto> {
  return proposeWith("create_return_request", userId, chatId, args, extra);
}

/** Calls a write tool the way the chat turn does and expects a confirm card. */
export async function proposeWith(
  tool: string,
  userId: string,
  chatId: string,
  args: Record<string, unknown>,
  extra: { now?: Date; toolCallId?: string } = {},
): Promise<PendingActionDto> {
  const outcome: ToolCallOutcome = await executeToolCall(tool, args, {
    userId,
    chatId,
    promptVersion: "test-prompt-1",
    model: "test-model",
    ...extra,
  });
  if (outcome.kind !== "proposal")
    throw new Error(`expected a proposal, got ${JSON.stringify(outcome)}`);
  return outcome.action;
}

/** The AppError a call was refused with; fails the test if it was not refused. */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}
