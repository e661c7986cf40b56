/**
 * Free text a person or the model typed, as we store it and show it to customers, staff and the
 * warehouse. Whatever the entry point (a model's tool arguments, a customer's revision, a staff
 * reason or note), it goes through this one function, declared into the zod schemas, so the
 * stored value is a fixed point: parsing it again (as confirm does) yields the same text and so
 * the same payload hash.
 *
 * Removed: NUL (PostgreSQL's text and jsonb cannot hold it, see nul.ts), the other C0 and C1
 * controls (a terminal or a CSV reads them), bidi embeddings, overrides, isolates and marks (they
 * make "Hauptstr. 5" display as something else on a staff page or a label), and zero-width
 * characters (two addresses that look the same would compare different; a joiner inside an emoji
 * sequence stays). Line breaks survive only
 * in a multi-line field; elsewhere every run of whitespace is one space. Then trimmed and NFC, so
 * "é" typed two ways is one string.
 */
import { z } from "zod";

/** Every C0 and C1 control but the newline (tab and CR are spaces and newlines by then). */
const CONTROLS = /[^\P{Cc}\n]/gu;
/** Bidi marks, embeddings, overrides and isolates; zero-width space, non-joiner, word joiner, BOM. */
const INVISIBLE = /[\u061C\u200B\u200C\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
/**
 * A zero-width joiner, except inside an emoji sequence (👩‍👩‍👧 is one picture; without its joiners
 * it would be three): there it sits between a pictograph (or its skin tone or VS16) and the next.
 */
const STRAY_JOINER =
  /(?<!\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

export type FreeTextOptions = {
  /** Keep line breaks (CR LF and CR become \n) and other spacing as typed, a tab as a space. */
  multiline?: boolean;
};

export function freeText(raw: string, { multiline = false }: FreeTextOptions = {}): string {
  const text = raw
    .toWellFormed()
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(CONTROLS, "")
    .replace(INVISIBLE, "")
    // Last of the removals: a joiner is judged by the neighbours that are left.
    .replace(STRAY_JOINER, "");
  const spaced = multiline ? text.trim() : text.replace(/\s+/g, " ").trim();
  // NFC last: composing never yields a removed character, and may join a letter with a mark
  // that a removed character used to separate.
  return spaced.normalize("NFC");
}

/**
 * A zod schema of free text: `inner` checks the normalised string (lengths, emptiness). A
 * preprocess rather than a transform, so the JSON Schema of the input (the OpenAPI document and
 * the model's tool schema) still carries inner's limits.
 */
export function freeTextSchema<T extends z.ZodType>(inner: T, options?: FreeTextOptions) {
  return z.preprocess((v) => (typeof v === "string" ? freeText(v, options) : v), inner);
}
