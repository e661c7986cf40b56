/**
 * Argument normalization shared by every tool schema. Normalizing inside the zod schema means the
 * stored arguments are a fixed point: parsing them again (as confirm does) yields the same value
 * and therefore the same payload hash.
 */
import { z } from "zod";

export const ORDER_ID = z
  .string()
  .regex(/^\d{4}$/, 'orderId is the four-digit order number, e.g. "7718"');

/** Runs of whitespace (incl. newlines, NBSP) become one space; ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export const COMMENT_MAX_CHARS = 300;

/**
 * Optional free text: collapsed, "" -> null, at most 300 characters (Unicode code points, so an
 * emoji counts once). Everything else (zero-width, RTL marks, markup) is kept byte for byte: it is
 * data, rendered as text, never interpreted.
 */
export const COMMENT = z
  .string()
  .nullish()
  .transform((v) => (v == null ? null : collapseWhitespace(v) || null))
  .refine((v) => v === null || [...v].length <= COMMENT_MAX_CHARS, {
    message: `comment must be at most ${COMMENT_MAX_CHARS} characters`,
  })
  // A transform's output type is invisible to JSON Schema; say it for the OpenAPI document.
  .meta({ override: { type: ["string", "null"] } });
