/**
 * What customers actually type, in both languages, through the real loop with the real tools:
 * each row's final message must produce the expected behaviour class, and the reply must come in
 * the customer's language. The behaviour is read from what the customer would see (tool calls,
 * the reply text), and cross-checked against the model's own label. Prints the share right.
 *
 * Reproduce: npx vitest run tests/unit/offline-model-utterances.test.ts
 */
import { beforeAll, expect, it } from "vitest";
import { UTTERANCES } from "@/eval/utterances.table";
import { TOOLS } from "@/lib/tools/registry";
import { type Core, newChat, setupCore } from "../integration/action-core/fixtures";
import { Chat, replyLanguage, type Turn } from "./offline-model-harness";

/** A write tool's call is a proposal, whichever tool it is. */
const WRITE_TOOLS = new Set<string>(TOOLS.filter((t) => t.access === "write").map((t) => t.name));

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

type Observed =
  | { class: "no_tool_reply" | "clarify" | "refuse" | "get_return_policy" }
  | { class: "get_order_status"; orderIds: string[] }
  | { class: "create_return_request" | "cancel_order" | "change_delivery_address"; args: unknown }
  | {
      class: "answer_and_propose";
      orderIds: string[];
      policy?: true;
      write: { class: string; args: unknown };
    };

// A clarifying question is a question about the order, its number or the reason; a refusal is an
// apology that says it cannot. Defined here, from the text, not from the model's templates.
const CLARIFYING =
  /which order|number|reason|prepare a return request|cancel|address|size|какой|какого|номер|причин|подготовить заявку|отмен|адрес|размер/i;
const REFUSAL = /^(sorry|извините)[\s,][^.]*(can't|cannot|не могу)/iu;
// The return policy's refusal, said after the order's lookup: it cannot be returned, and why.
const POLICY_REFUSAL =
  /(can't|cannot) request a return|nothing to return|оформить возврат (пока )?нельзя|возвращать нечего/iu;

const statusIds = (turn: Turn) =>
  turn.decided
    .filter((c) => c.toolName === "get_order_status")
    .map((c) => (c.input as { orderId: string }).orderId);

function observe(turn: Turn): Observed {
  const names = turn.decided.map((c) => c.toolName);
  // A write tool's call is the proposal; read tools' calls are lookups.
  const write = turn.decided.find((c) => WRITE_TOOLS.has(c.toolName));
  if (write) return { class: write.toolName as "cancel_order", args: write.input };
  // Looked up first, proposed in a later step of the same turn: a question and a request.
  const later = turn.calls.find((c) => WRITE_TOOLS.has(c.toolName));
  const READS = ["get_order_status", "get_return_policy"];
  if (later && names.length > 0 && names.every((n) => READS.includes(n))) {
    return {
      class: "answer_and_propose",
      orderIds: statusIds(turn),
      ...(names.includes("get_return_policy") ? { policy: true as const } : {}),
      write: { class: later.toolName, args: later.input },
    };
  }
  if (names.includes("get_return_policy")) return { class: "get_return_policy" };
  if (names.length > 0 && names.every((n) => n === "get_order_status")) {
    // A return's order is looked up before its reason is asked: what follows is the refusal the
    // policy gives, or the question for the reason.
    if (turn.lastBehaviour === "refuse" && POLICY_REFUSAL.test(turn.text))
      return { class: "refuse" };
    const asked = (turn.text.match(/[^.?!]*\?/g) ?? []).some((q) => CLARIFYING.test(q));
    if (turn.lastBehaviour === "clarify" && asked) return { class: "clarify" };
    return { class: "get_order_status", orderIds: statusIds(turn) };
  }
  if (REFUSAL.test(turn.text)) return { class: "refuse" };
  const questions = turn.text.match(/[^.?!]*\?/g) ?? [];
  if (questions.some((q) => CLARIFYING.test(q))) return { class: "clarify" };
  return { class: "no_tool_reply" };
}

const LABEL_FOR: Record<Observed["class"], string> = {
  no_tool_reply: "small_talk",
  clarify: "clarify",
  refuse: "refuse",
  get_return_policy: "policy",
  get_order_status: "status",
  create_return_request: "propose",
  cancel_order: "propose",
  change_delivery_address: "propose",
  answer_and_propose: "status+propose",
};

it(`classifies ${UTTERANCES.length} customer utterances correctly, in the customer's language`, async () => {
  expect(UTTERANCES.length).toBeGreaterThanOrEqual(60);
  const wrong: unknown[] = [];
  for (const row of UTTERANCES) {
    const chat = new Chat({ userId: core.anna, chatId: await newChat(core.db, core.anna) });
    const says = Array.isArray(row.say) ? row.say : [row.say];
    let turn: Turn | undefined;
    for (const text of says) turn = await chat.say(text);
    const observed = observe(turn!);
    const problems: string[] = [];
    if (JSON.stringify(observed) !== JSON.stringify(row.expect)) problems.push("behaviour");
    // After a lookup, the label of the step that answered.
    const label =
      turn!.decided.length > 0 && (observed.class === "clarify" || observed.class === "refuse")
        ? turn!.lastBehaviour
        : turn!.behaviour;
    if (label !== LABEL_FOR[observed.class]) problems.push(`model label ${label}`);
    // A proposal ends the turn without model text (the app writes the confirmation).
    if (turn!.text && replyLanguage(turn!.text) !== row.lang) problems.push("language");
    // The read of a two-request message is answered, not only looked up.
    if (
      observed.class === "answer_and_propose" &&
      !observed.orderIds.every((id) => turn!.text.includes(id))
    )
      problems.push("status not answered");
    if (problems.length)
      wrong.push({ say: row.say, problems, expected: row.expect, observed, reply: turn!.text });
  }
  const right = UTTERANCES.length - wrong.length;
  console.log(
    `offline model utterances: ${right}/${UTTERANCES.length} right (${((100 * right) / UTTERANCES.length).toFixed(1)}%)`,
  );
  expect(wrong).toEqual([]);
});
