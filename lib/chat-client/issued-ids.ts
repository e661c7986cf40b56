/**
 * Ids the app issues to a customer and quotes in the conversation: a return request (`RR-…`,
 * lib/tools/create-return-request/) or a cancellation (`CN-…`, lib/tools/cancel-order/), two
 * capitals, a dash and eight characters. They are data like an order number, not words of any
 * language: the page marks them translate="no", so a browser's translator leaves them alone and
 * the language checks of the e2e suite (tests/e2e/language.ts) skip them.
 */
const ISSUED_ID = /\b[A-Z]{2}-[0-9A-Z]{8}\b/g;

export type TextPiece = { text: string; id: boolean };

/** "Request ID: RR-7K2M9QXA." -> the text around the id, and the id itself. */
export function splitIssuedIds(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(ISSUED_ID)) {
    if (m.index > at) pieces.push({ text: text.slice(at, m.index), id: false });
    pieces.push({ text: m[0], id: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), id: false });
  return pieces;
}
