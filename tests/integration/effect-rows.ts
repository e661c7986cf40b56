/**
 * Outbox rows written straight into the table, for the tests of the relay's own queries
 * (effects-due, effect-canary-queries): each row's status, due time and lease as a test needs
 * them, in seconds from a fixed instant.
 */
import { getDb } from "@/db";
import { effects } from "@/db/schema";

const T = new Date("2026-12-04T12:00:00.000Z").getTime();
/** The fixed instant plus `s` seconds. */
export const at = (s: number) => new Date(T + s * 1000);

export async function insertEffect(e: {
  id: string;
  kind: string;
  status: string;
  /** Due this many seconds after the fixed instant. */
  dueIn: number;
  /** Leased to another relay until this many seconds after it (null: no lease). */
  leaseIn?: number | null;
}): Promise<void> {
  const leaseIn = e.leaseIn ?? null;
  await getDb()
    .insert(effects)
    .values({
      id: e.id,
      actionId: `action-${e.id}`,
      kind: e.kind,
      idempotencyKey: `key-${e.id}`,
      payload: {},
      status: e.status as never,
      nextAttemptAt: at(e.dueIn),
      leaseOwner: leaseIn === null ? null : "relay-old",
      leaseUntil: leaseIn === null ? null : at(leaseIn),
      attempts: 1,
      createdAt: at(-60),
      updatedAt: at(-60),
    });
}
