/**
 * The metrics page's handoff section: of the handoffs requested in the chosen days (a customer
 * asking for a person), how many got a staff reply, and the time from the request to the first
 * staff reply: p50, p90 (nearest rank, exact) and the slowest.
 */
import "server-only";
import { handoffsRequestedBetween } from "@/db/queries/handoffs";
import { DAY_MS } from "@/db/queries/metrics";
import { rankOf } from "./effects";

export type HandoffsReport = {
  requested: number;
  replied: number;
  /** Time to the first staff reply over the replied ones; null when none was replied to. */
  firstReply: { p50: number; p90: number; max: number } | null;
};

export async function handoffsReport({
  fromDay,
  toDay,
}: {
  fromDay: number;
  toDay: number;
}): Promise<HandoffsReport> {
  const rows = await handoffsRequestedBetween({
    from: new Date(fromDay * DAY_MS),
    to: new Date(toDay * DAY_MS),
  });
  const waits = rows
    .flatMap((r) => (r.firstReplyAt ? [r.firstReplyAt.getTime() - r.requestedAt.getTime()] : []))
    .sort((a, b) => a - b);
  const at = (q: number) => waits[rankOf(q, waits.length) - 1] ?? 0;
  return {
    requested: rows.length,
    replied: waits.length,
    firstReply: waits.length === 0 ? null : { p50: at(0.5), p90: at(0.9), max: at(1) },
  };
}
