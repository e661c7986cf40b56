/**
 * Slot extraction: order numbers, the return reason and the customer's comment. Pure functions of
 * the message text, so the same words always give the same arguments.
 */
import {
  DESCRIBING_CUES,
  FILLER_WORDS,
  MONEY_AFTER,
  MONEY_BEFORE,
  ORDER_MARKER,
  REASON_CUES,
  REASON_INTRO,
  REASON_NEGATIONS,
  REASON_ORDER,
  type Reason,
  YEAR_AFTER,
  YEAR_BEFORE,
} from "./lexicon-reasons";
import { TYPO_KEEP, TYPO_STEMS } from "./lexicon-typos";
import { correctText, type Lang, normalize, re } from "./text";
import { THREAD_ROWS, TOOL_ROWS } from "./tool-rows";

const MARKED = re(`${ORDER_MARKER}[\\s:.\\-]*$`);
const MONEY_B = re(MONEY_BEFORE);
const MONEY_A = re(MONEY_AFTER);
const YEAR_B = re(YEAR_BEFORE);
const YEAR_A = re(YEAR_AFTER);
const COMMENT_MAX = 300;

export type OrderNumbers = { ids: string[]; malformed: string[] };

/** Four-digit order numbers in order of appearance; marked numbers of another length as malformed. */
export function extractOrderNumbers(text: string): OrderNumbers {
  const lower = text.toLowerCase().replaceAll("ё", "е");
  const ids: string[] = [];
  const malformed: string[] = [];
  for (const m of lower.matchAll(/(?<![\p{L}\d])\d+(?!\d)/gu)) {
    const digits = m[0];
    const at = m.index ?? 0;
    const before = lower.slice(Math.max(0, at - 30), at);
    const after = lower.slice(at + digits.length, at + digits.length + 12);
    const marked = MARKED.test(before);
    if (digits.length !== 4) {
      if (marked) malformed.push(digits);
      continue;
    }
    const money = MONEY_B.test(before) || MONEY_A.test(after);
    const year = /^(19|20)\d\d$/.test(digits) && (YEAR_B.test(before) || YEAR_A.test(after));
    if (!marked && (money || year)) continue;
    if (!ids.includes(digits)) ids.push(digits);
  }
  return { ids, malformed };
}

const compiled = <K extends string>(table: Record<K, Record<Lang, string[]>>) =>
  Object.fromEntries(
    Object.entries<Record<Lang, string[]>>(table).map(([k, v]) => [
      k,
      [...v.en, ...v.ru].map((s) => re(s)),
    ]),
  ) as Record<K, RegExp[]>;

const REASON_RES = compiled(REASON_CUES);
// Global flags only where we replace: a global regex's test() is stateful (lastIndex).
const NEGATION_RES = REASON_NEGATIONS.map((s) => re(s, "giu"));
const global = (r: RegExp) => new RegExp(r.source, `${r.flags}g`);
/** What a comment must go beyond: the cues that name a reason, not those that describe it. */
const DESCRIBING = new Set([...DESCRIBING_CUES.en, ...DESCRIBING_CUES.ru].map((s) => re(s).source));
const REASON_REPLACE = REASON_ORDER.flatMap((r) =>
  REASON_RES[r].filter((x) => !DESCRIBING.has(x.source)).map(global),
);
const INTRO_RES: Record<Lang, RegExp> = { en: re(REASON_INTRO.en), ru: re(REASON_INTRO.ru) };
/** A thread's request words (a return's): what comes after them and its order is the reason. */
const REQUEST_RES = THREAD_ROWS.flatMap((t) => t.patterns.request);

/** Normalised, typo-corrected text: what every table pattern runs on. */
/** The shared stems and every write tool's own (its rows' lexicon). */
const STEMS = [...TYPO_STEMS, ...TOOL_ROWS.flatMap((t) => t.rows.lexicon.stems ?? [])];

export function canonical(text: string): string {
  return correctText(normalize(text), STEMS, TYPO_KEEP);
}

function withoutNegatedReasons(canon: string): string {
  return NEGATION_RES.reduce((t, r) => t.replace(r, " "), canon);
}

/** The first reason whose cue appears (damage before defect before other), or null. */
export function findReason(canon: string): Reason | null {
  const text = withoutNegatedReasons(canon);
  return REASON_ORDER.find((r) => REASON_RES[r].some((x) => x.test(text))) ?? null;
}

function informativeWords(clause: string, lang: Lang): string[] {
  let text = withoutNegatedReasons(canonical(clause));
  for (const x of REASON_REPLACE) text = text.replace(x, " ");
  const filler = new Set([...FILLER_WORDS.en, ...FILLER_WORDS[lang]]);
  return text.split(" ").filter((w) => w.length > 1 && !/\d/.test(w) && !filler.has(w));
}

function tidy(clause: string): string {
  const t = clause
    .replace(/^[\s,;:.\-—–]+|[\s,;:\-—–]+$/gu, "")
    .replace(/^(and|but|so|и|а|но)\s+/iu, "")
    .replace(/\s+/g, " ");
  const capped = t.length > COMMENT_MAX ? `${t.slice(0, COMMENT_MAX - 1).trimEnd()}…` : t;
  return capped.charAt(0).toUpperCase() + capped.slice(1);
}

/** Clauses: sentences split further at commas, dashes and colons, each kept in the customer's words. */
function clauses(text: string): string[] {
  return text
    .split(/[.!?;\n]+|,|\s[—–-]\s|:\s/u)
    .map((c) => c.trim())
    .filter(Boolean);
}

export type ReasonSlot = { reason: Reason; comment: string | null };

/**
 * The reason and, when the customer's words add something to it, the comment. A damaged or
 * defective reason keeps its clause as the comment only when a content word goes beyond the cue
 * and filler ("the glass carafe is cracked", not "the item arrived damaged"); "other" keeps the
 * clause itself, because its words are the reason. An explanation
 * after "because"/"потому что" that no table knows still counts, as "other".
 */
export function extractReason(text: string, lang: Lang): ReasonSlot | null {
  const reason = findReason(canonical(text));
  if (reason) {
    const clause = clauses(text).find((c) => findReason(canonical(c)) === reason) ?? "";
    const explained = afterIntro(clause, lang) ?? afterRequest(clause) ?? clause;
    if (reason === "other") return { reason, comment: explained ? tidy(explained) : null };
    // "It arrived damaged, the box was crushed": the detail sits in the clauses that follow,
    // after an informative clause as well ("the coffee machine is defective, it leaks").
    const all = clauses(text);
    const detail = all
      .slice(all.indexOf(clause) + 1)
      .filter((c) => findReason(canonical(c)) !== null || informativeWords(c, lang).length >= 1);
    const said = informativeWords(explained, lang).length >= 1 ? [explained, ...detail] : detail;
    return { reason, comment: said.length > 0 ? tidy(said.join(", ")) : null };
  }
  for (const c of clauses(text)) {
    const explained = afterIntro(c, lang);
    if (explained && informativeWords(explained, lang).length >= 2) {
      return { reason: "other", comment: tidy(explained) };
    }
  }
  return null;
}

/**
 * "pls refund order 7718 coffee machine is dead on arrival": when the words before the order
 * number are the request itself, the reason is what follows it.
 */
function afterRequest(clause: string): string | null {
  const numbers = [...clause.matchAll(/\d{4}/g)];
  const last = numbers.at(-1);
  if (!last || last.index === undefined) return null;
  const head = canonical(clause.slice(0, last.index));
  const tail = clause.slice(last.index + last[0].length).trim();
  return tail && REQUEST_RES.some((r) => r.test(head)) ? tail : null;
}

/** The part of a clause after "because", in the original words (matched on the canonical form). */
function afterIntro(clause: string, lang: Lang): string | null {
  const intro = INTRO_RES[lang];
  const words = clause.split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const head = canonical(words.slice(0, i + 1).join(" "));
    if (intro.test(head)) {
      // "the reason is that ...", "причина в том, что ...": the linking words are not the reason.
      const rest = words
        .slice(i + 1)
        .join(" ")
        .replace(/^((is|was|that|being|это|в том,? что|что)[\s,:]+)+/iu, "");
      return rest.trim() ? rest : null;
    }
  }
  return null;
}
