/**
 * Known audit events for the audit read tests: inserted straight into a real SQLite file, with
 * every status, three real tools plus an unknown one, several chats and customers, and `at`
 * deliberately NOT always growing with id (a caller may pass `at`), so the tests prove the
 * queries are exact rather than relying on insertion order.
 */
import { getDb, one } from "@/db";
import { rebuildAuditCounters } from "@/db/queries/metrics";
import { writeTransaction } from "@/db/queries/tx";
import { AUDIT_STATUSES, type AuditStatus, auditEvents, user } from "@/db/schema";

export const T0 = Date.parse("2026-03-01T00:00:00.000Z");
export const MINUTE = 60_000;

export type Known = {
  id: number;
  at: Date;
  status: AuditStatus;
  tool: string;
  chatId: string | null;
  userId: string | null;
  actionId: string | null;
};

export const TOOLS = [
  "get_order_status",
  "get_return_policy",
  "create_return_request",
  "delete_everything",
];

export async function userIdOf(email: string): Promise<string> {
  const row = await getDb().select({ id: user.id, email: user.email }).from(user);
  const hit = row.find((r) => r.email === email);
  if (!hit) throw new Error(`no user ${email}`);
  return hit.id;
}

/** Inserts `n` events and returns them as stored (ids from the database). */
export async function insertKnownEvents(n: number): Promise<Known[]> {
  const people = [await userIdOf("anna@example.com"), await userIdOf("boris@example.com"), null];
  const out: Known[] = [];
  await writeTransaction(async () => {
    const tx = getDb();
    for (let i = 0; i < n; i++) {
      // Mostly one minute apart, but every 7th event is stamped 30 minutes in the past.
      const at = new Date(T0 + i * MINUTE - (i % 7 === 3 ? 30 * MINUTE : 0));
      const status = AUDIT_STATUSES[i % AUDIT_STATUSES.length]!;
      const tool = TOOLS[i % TOOLS.length]!;
      const chatId = i % 11 === 0 ? null : `chat-${i % 5}`;
      const userId = people[i % 3] ?? null;
      const actionId = tool === "create_return_request" ? `action-${i % 4}` : null;
      const row = await tx
        .insert(auditEvents)
        .values({
          at,
          status,
          tool,
          chatId,
          userId,
          actionId,
          access:
            tool === "create_return_request"
              ? "write"
              : tool === "delete_everything"
                ? null
                : "read",
          toolCallId: `call-${i}`,
          durationMs: i % 50,
          arguments: { orderId: "7718", n: i },
          result: { ok: i % 2 === 0 },
          promptVersion: "v1",
          model: "returns-desk-offline-1",
        })
        .returning({ id: auditEvents.id })
        .then(one);
      out.push({ id: row.id, at, status, tool, chatId, userId, actionId });
    }
  });
  // Inserted past the audit writer, so its daily counters are rebuilt from the rows, as
  // migration 0006 does for an existing database.
  await rebuildAuditCounters();
  return out;
}

export type KnownFilter = Partial<Pick<Known, "status" | "tool" | "chatId" | "userId">> & {
  from?: Date;
  to?: Date;
};

/** What a filter should return: newest first by time, then by id. */
export function expected(all: Known[], f: KnownFilter): number[] {
  return all
    .filter(
      (e) =>
        (f.status === undefined || e.status === f.status) &&
        (f.tool === undefined || e.tool === f.tool) &&
        (f.chatId === undefined || e.chatId === f.chatId) &&
        (f.userId === undefined || e.userId === f.userId) &&
        (f.from === undefined || e.at.getTime() >= f.from.getTime()) &&
        (f.to === undefined || e.at.getTime() < f.to.getTime()),
    )
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id)
    .map((e) => e.id);
}
