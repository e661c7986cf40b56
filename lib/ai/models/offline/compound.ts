/**
 * Two requests in one message: "What's the status of 3004? Also I'd like to return 7718, it's
 * defective." Split into sentences, one of them a status question with its own order number and
 * the rest a complete return request (one order, a reason). The turn then runs as a careful agent
 * would: look the order up first, and in the next step answer it and propose the return, so the
 * read is answered and the write becomes a card in one turn. Anything less clear-cut is left to
 * the single-request rules (which ask which order is meant).
 */
import { classify, has, requests, type Utterance } from "./classify";
import type { PlannedCall } from "./decide";

export type Compound = { lookups: string[]; request: Utterance };

const SENTENCE_END = /(?<=[.?!;])\s+/u;

export function splitCompound(u: Utterance): Compound | null {
  if (u.ids.length < 2 || !has(u, "order_status") || !requests(u)) return null;
  const sentences = u.text.split(SENTENCE_END).map((s) => classify(s));
  const isStatus = (s: Utterance) =>
    s.ids.length > 0 && has(s, "order_status") && !has(s, "return_request", "return_question");
  const status = sentences.filter(isStatus);
  if (status.length !== 1) return null;
  const rest = sentences.filter((s) => !isStatus(s));
  const request = classify(rest.map((s) => s.text).join(" "));
  if (!requests(request) || request.ids.length !== 1) return null;
  if (status[0]!.ids.some((id) => request.ids.includes(id))) return null;
  return { lookups: status[0]!.ids, request };
}

/** The write still to make in this turn: the compound's request, if no step has called it. */
export function remainingWrite(
  planned: PlannedCall | null,
  called: readonly { toolName: string }[],
): PlannedCall | null {
  if (!planned) return null;
  return called.some((c) => c.toolName === planned.toolName) ? null : planned;
}
