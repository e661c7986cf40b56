/**
 * The body of POST /api/chats/{id}/messages, declared once: the route parses it, the OpenAPI
 * document (openapi.ts) describes it, and the chat turn normalises its text.
 */
import { z } from "zod";
import { AppError } from "@/lib/errors";

export const MAX_MESSAGE_CHARS = 2000;

/** Only the new text: history, roles, tool names and arguments from the browser are ignored. */
export const sendMessageBody = z.object({ text: z.string({ error: "text must be a string" }) });

/**
 * Text as we store it: well-formed UTF-16 (lone surrogates replaced), no NUL or other C0
 * controls except newline and tab, trimmed. Empty -> 400; over the limit (in characters,
 * not UTF-16 units) -> 413.
 */
export function normalizeMessageText(raw: string): string {
  const text = raw
    .toWellFormed()
    .replace(/\r\n?/g, "\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .trim();
  if (text === "") throw new AppError("invalid_request", "text must not be empty.");
  const length = [...text].length;
  if (length > MAX_MESSAGE_CHARS) {
    throw new AppError(
      "message_too_long",
      `Messages are limited to ${MAX_MESSAGE_CHARS} characters (got ${length}).`,
      {
        details: { maxChars: MAX_MESSAGE_CHARS },
      },
    );
  }
  return text;
}
