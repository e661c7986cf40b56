/**
 * Text plumbing for the offline model: normalisation, language guess, typo-tolerant stems and a
 * Unicode-aware `\b` (JavaScript's `\b` only knows ASCII letters, so it fails on Cyrillic).
 */
// `Lang` is the offline model's local name for the one Locale type (db/constants.ts).
export { detectLanguage, type Locale as Lang } from "@/lib/text/language";

export { re } from "@/lib/text/regex";
export { fromTranslit } from "@/lib/text/translit";

/**
 * Lower case, ё -> е, typographic apostrophes -> ', punctuation -> spaces (keeping # and № for
 * order numbers, ' for "don't" and @ for e-mail addresses), one space between tokens.
 */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .replaceAll("ё", "е")
    .replace(/[’‘`´]/g, "'")
    .replace(/[^\p{L}\p{N}#№'@\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Optimal-string-alignment distance: insert, delete, substitute, swap neighbours (typical typos). */
export function typoDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    const row = d[i]!;
    const prev = d[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Rewrites a token whose beginning is one typo away from a known stem ("retrun" -> "return",
 * "возрата" -> "возврата"), keeping the ending so Russian inflections survive. Only stems of five
 * letters or more and the same first letter qualify: shorter words collide with real words.
 */
export function correctToken(token: string, stems: readonly string[], keep: ReadonlySet<string>) {
  if (keep.has(token) || /\d/.test(token)) return token;
  if (stems.some((s) => token.startsWith(s))) return token;
  for (const stem of stems) {
    if (stem.length < 5 || token[0] !== stem[0]) continue;
    for (const len of [stem.length, stem.length + 1, stem.length - 1]) {
      if (token.length < len) continue;
      if (typoDistance(token.slice(0, len), stem) <= 1) return stem + token.slice(len);
    }
  }
  return token;
}

export function correctText(norm: string, stems: readonly string[], keep: ReadonlySet<string>) {
  return norm
    .split(" ")
    .map((t) => correctToken(t, stems, keep))
    .join(" ");
}

/** Rough token count (words and punctuation runs), deterministic, for persisted usage numbers. */
export function estimateTokens(text: string): number {
  return text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]+/gu)?.length ?? 0;
}

/** Splits into sentences on . ! ? ; and line breaks, keeping the customer's wording. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}
