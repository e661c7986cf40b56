/**
 * Argument normalization shared by every tool schema. Normalizing inside the zod schema means the
 * stored arguments are a fixed point: parsing them again (as confirm does) yields the same value
 * and therefore the same payload hash.
 */
import { z } from "zod";
import { freeText } from "@/lib/text/free-text";

export const ORDER_ID = z
  .string()
  .regex(/^\d{4}$/, 'orderId is the four-digit order number, e.g. "7718"');

export const COMMENT_MAX_CHARS = 300;

/**
 * Optional free text: one line of it (lib/text/free-text.ts: no controls, bidi or zero-width
 * characters, whitespace collapsed, NFC), "" -> null, at most 300 characters (Unicode code points,
 * so an emoji counts once). Markup is kept as typed: it is data, rendered as text, never
 * interpreted.
 */
export const COMMENT = z
  .string()
  .nullish()
  .transform((v) => (v == null ? null : freeText(v) || null))
  .refine((v) => v === null || [...v].length <= COMMENT_MAX_CHARS, {
    message: `comment must be at most ${COMMENT_MAX_CHARS} characters`,
  })
  // A transform's output type is invisible to JSON Schema; say it for the OpenAPI document.
  .meta({ override: { type: ["string", "null"] } });
