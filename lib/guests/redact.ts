/**
 * A guest's one-time code belongs in the verification form, never in the chat: a message is
 * stored in the transcript and sent to the model (untrusted, and it could be asked to repeat it).
 * Six digits standing alone (also written `123 456` or `123-456`) are blanked out of a guest's
 * message before either happens. Order numbers (four digits) and longer numbers are kept.
 */
export const CODE_MASK = "••••••";

const CODE_LIKE = /(?<![\p{Nd}])\p{Nd}{3}[\s-]?\p{Nd}{3}(?![\p{Nd}])/gu;

export function withoutCodes(text: string): { text: string; removed: boolean } {
  const out = text.replace(CODE_LIKE, CODE_MASK);
  return { text: out, removed: out !== text };
}
