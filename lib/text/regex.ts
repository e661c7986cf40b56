/**
 * A Unicode-aware `\b` (JavaScript's `\b` only knows ASCII letters, so it fails on Cyrillic), for
 * the offline model and the tools' rows for it (lib/tools/offline-types.ts).
 */
const LETTER_OR_DIGIT = String.raw`[\p{L}\p{N}]`;
const BOUNDARY = `(?:(?<!${LETTER_OR_DIGIT})(?=${LETTER_OR_DIGIT})|(?<=${LETTER_OR_DIGIT})(?!${LETTER_OR_DIGIT}))`;

/** Builds a case-insensitive Unicode regex in which `\b` is a real word boundary in any script. */
export function re(source: string, flags = "iu"): RegExp {
  return new RegExp(source.replaceAll(String.raw`\b`, BOUNDARY), flags);
}
