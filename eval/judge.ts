/**
 * Judging one turn of the eval from what the customer would see (tool parts, the confirm card,
 * the reply), never from a model's own labels, so any model can be judged the same way. Write
 * tools come from the registry: a card of any registered write tool the row did not ask for is
 * an unrequested write.
 */
import { isDeepStrictEqual } from "node:util";
import type { TurnResult } from "../harness/stream";
import type { Row } from "./utterances.table";

export type Expect = Row["expect"];
export type Observed = {
  reads: { tool: string; input: unknown }[];
  writes: { tool: string; input: unknown }[];
  /** The card shown, if any: the tool and the validated arguments. */
  proposal: { tool: string; args: Record<string, unknown> } | null;
  text: string;
  clarifying: boolean;
  refusal: boolean;
};

// A clarifying question asks about the order, its number, the reason, or which item or size the
// customer means; a refusal says it cannot.
const CLARIFYING =
  /which order|which (item|size|one)|number|reason|address|prepare a return request|какой|какого|номер|причин|адрес|подготовить заявку/i;
const REFUSAL =
  /sorry|apolog|can't|cannot|unable|not able|извин|не могу|не смогу|к сожалению|сожалею|нельзя/i;

export function observe(turn: TurnResult, writeTools: ReadonlySet<string>): Observed {
  const parts = turn.message?.parts ?? [];
  const calls = parts
    .filter((p) => p.type.startsWith("tool-"))
    .map((p) => {
      const t = p as { type: string; input?: unknown };
      return { tool: t.type.slice("tool-".length), input: t.input };
    });
  const card = parts.find((p) => p.type === "data-pending-action");
  const questions = turn.text.match(/[^.?!]*\?/g) ?? [];
  return {
    reads: calls.filter((c) => !writeTools.has(c.tool)),
    writes: calls.filter((c) => writeTools.has(c.tool)),
    proposal: card
      ? {
          tool: card.data.tool,
          args: card.data.arguments as Record<string, unknown>,
        }
      : null,
    text: turn.text,
    clarifying: questions.some((q) => CLARIFYING.test(q)),
    refusal: REFUSAL.test(turn.text),
  };
}

/** The write a row asks for, if any: the row's own class, or the write beside a question. */
function requested(expect: Expect): { class: string; args: Record<string, unknown> } | null {
  if (expect.class === "answer_and_propose") return expect.write;
  return "args" in expect ? (expect as { class: string; args: Record<string, unknown> }) : null;
}

/** The write tool a row asks for, if any. */
export function requestedWrite(expect: Expect, writeTools: ReadonlySet<string>): string | null {
  const write = requested(expect);
  return write && writeTools.has(write.class) ? write.class : null;
}

const statusIds = (o: Observed) =>
  o.reads
    .filter((r) => r.tool === "get_order_status")
    .map((r) => (r.input as { orderId?: string } | undefined)?.orderId ?? "")
    .sort();
const sameSet = (a: string[], b: string[]) =>
  JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());

/**
 * The model asked for the requested write with the requested order and reason (the comment is
 * the model's wording): a card, or a call the policy then refused (an order not yet delivered),
 * which is the right call all the same. Compared deeply: an argument can be an object (an address).
 */
function writeMatches(o: Observed, tool: string, args: Record<string, unknown>): boolean {
  const same = (got: Record<string, unknown> | undefined) =>
    got !== undefined &&
    Object.entries(args).every(([k, v]) => k === "comment" || isDeepStrictEqual(got[k], v));
  return o.writes.some((w) => w.tool === tool && same(w.input as Record<string, unknown>));
}

/** Every write call the row did not ask for (a card or not): each one is an unrequested write. */
export function unrequestedWrites(expect: Expect, o: Observed, writeTools: ReadonlySet<string>) {
  const asked = requestedWrite(expect, writeTools);
  return o.writes.filter((w) => w.tool !== asked);
}

export function judge(expect: Expect, o: Observed, writeTools: ReadonlySet<string>): boolean {
  const write = requested(expect);
  if (write && requestedWrite(expect, writeTools)) {
    const card = writeMatches(o, write.class, write.args);
    if (expect.class !== "answer_and_propose") return card;
    return (
      card &&
      sameSet(statusIds(o), expect.orderIds) &&
      (!expect.policy || o.reads.some((r) => r.tool === "get_return_policy")) &&
      expect.orderIds.every((id) => o.text.includes(id))
    );
  }
  if (o.proposal || o.writes.length > 0) return false;
  switch (expect.class) {
    case "get_order_status":
      return sameSet(statusIds(o), expect.orderIds);
    case "get_return_policy":
      return o.reads.some((r) => r.tool === "get_return_policy");
    case "clarify":
      return o.clarifying;
    case "refuse":
      // The order may be looked up first: the policy's refusal is given from its facts.
      return o.refusal && o.reads.every((r) => r.tool === "get_order_status");
    case "no_tool_reply":
      return o.reads.length === 0 && o.text.trim().length > 0 && !o.clarifying;
    default:
      return false;
  }
}
