/**
 * Read-only looks at the database for assertions: what a support engineer would check with
 * sqlite3 after a scenario. Tests never write through these.
 */
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { auditEvents, messages, pendingActions, returnRequests } from "@/db/schema";

export const returnsFor = (orderId: string) =>
  getDb().select().from(returnRequests).where(eq(returnRequests.orderId, orderId));

export const auditFor = (chatId: string) =>
  getDb()
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.chatId, chatId))
    .orderBy(asc(auditEvents.id));

export const auditStatuses = async (chatId: string) =>
  (await auditFor(chatId)).map((e) => `${e.tool}:${e.status}`);

export const actionsIn = (chatId: string) =>
  getDb().select().from(pendingActions).where(eq(pendingActions.chatId, chatId));

export const messageCount = async (chatId: string) =>
  (await getDb().select().from(messages).where(eq(messages.chatId, chatId))).length;

export const pendingIn = (chatId: string) =>
  getDb()
    .select()
    .from(pendingActions)
    .where(and(eq(pendingActions.chatId, chatId), eq(pendingActions.status, "pending")));
