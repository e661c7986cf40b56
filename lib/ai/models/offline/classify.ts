/**
 * One customer message -> what it signals (cues from the tables) and what it carries (order
 * numbers, reason, comment). No decisions here: decide.ts weighs the cues against the conversation.
 */
import { canonical, extractOrderNumbers, extractReason, type ReasonSlot } from "./extract";
import { CUES, type Cue as IntentCue } from "./lexicon-intents";
import { detectLanguage, fromTranslit, type Lang, re } from "./text";
import { type ThreadRows, TOOL_ROWS, type ToolCue, type ToolCueKind, toolCue } from "./tool-rows";

/** A cue of the shared lexicon, or of one write tool's rows (`<tool name>:request`). */
export type Cue = IntentCue | ToolCue;

export type Utterance = {
  /** What the customer typed; Russian in Latin letters as read back into Cyrillic (translit.ts). */
  text: string;
  /** null when the message has no letters ("#7718"): the conversation's language applies. */
  lang: Lang | null;
  canon: string;
  cues: ReadonlySet<Cue>;
  ids: string[];
  malformed: string[];
  reason: ReasonSlot | null;
};

const CUE_RES = Object.fromEntries(
  Object.entries(CUES).map(([cue, byLang]) => [
    cue,
    [...byLang.en, ...byLang.ru].map((s) => re(s)),
  ]),
) as Record<IntentCue, RegExp[]>;

/**
 * classify() is pure and runs ~120 regexes, and the model reads the whole conversation on every
 * call, so each earlier message of a chat would be classified again on every step of every turn.
 * Remembered per text (least recently used out); callers never mutate an Utterance.
 */
const MEMO_SIZE = 2048;
const memo = new Map<string, Utterance>();

/** Both languages' patterns run on every message: customers mix them ("заказ #8041 where?"). */
export function classify(text: string): Utterance {
  const hit = memo.get(text);
  if (hit) {
    memo.delete(text);
    memo.set(text, hit);
    return hit;
  }
  const u = classifyText(text);
  memo.set(text, u);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  return u;
}

/** Russian typed in Latin letters is read, and understood, as the Cyrillic it stands for. */
function classifyText(typed: string): Utterance {
  const text = fromTranslit(typed) ?? typed;
  const canon = canonical(text);
  const cues = new Set<Cue>();
  for (const [cue, patterns] of Object.entries(CUE_RES) as [IntentCue, RegExp[]][]) {
    if (patterns.some((p) => p.test(canon))) cues.add(cue);
  }
  for (const tool of TOOL_ROWS) {
    for (const [kind, patterns] of Object.entries(tool.patterns) as [ToolCueKind, RegExp[]][]) {
      if (patterns.some((p) => p.test(canon))) cues.add(toolCue(tool.name, kind));
    }
  }
  // Read back into Cyrillic, English words in the message no longer match English patterns: a
  // few Russian words must not hide "ignore your instructions" from the refusals.
  if (text !== typed && CUE_RES.forbidden.some((p) => p.test(canonical(typed)))) {
    cues.add("forbidden");
  }
  const lang = detectLanguage(text);
  const { ids, malformed } = extractOrderNumbers(text);
  return { text, lang, canon, cues, ids, malformed, reason: extractReason(text, lang ?? "en") };
}

/** A message that only answers a question: an order number and/or a reason, nothing else asked. */
export function isFragment(u: Utterance): boolean {
  const asks: Cue[] = [
    "order_status",
    "forbidden",
    "unsupported",
    ...TOOL_ROWS.flatMap((t) => [toolCue(t.name, "request"), toolCue(t.name, "question")]),
  ];
  return (u.ids.length > 0 || u.reason !== null) && !asks.some((c) => u.cues.has(c));
}

export const has = (u: Utterance, ...cues: Cue[]) => cues.some((c) => u.cues.has(c));

/**
 * An explicit request for a thread's tool (a return), not "just asking" about one. Its own
 * question cue does not undo it: a request that also asks something is still a request.
 */
export const requestsThread = (u: Utterance, t: ThreadRows) =>
  has(u, toolCue(t.name, "request")) && !has(u, "asking", "not_requesting");

/** An explicit request for a write tool's action, not a question about it or a "don't". */
export const requestsTool = (u: Utterance, tool: string) =>
  has(u, toolCue(tool, "request")) &&
  !has(
    u,
    toolCue(tool, "question"),
    toolCue(tool, "negation"),
    "asking",
    "not_requesting",
    "unsupported",
  );

/** Asking about a write tool's action, or saying not to do it. */
export const mentionsTool = (u: Utterance, tool: string) =>
  has(u, toolCue(tool, "request"), toolCue(tool, "question"), toolCue(tool, "negation"));

/** Part of a thread's conversation (a return's): a request, a question, a "yes", or just its details. */
export const inThread = (u: Utterance, t: ThreadRows) =>
  has(u, toolCue(t.name, "request"), toolCue(t.name, "question"), "affirm") || isFragment(u);
