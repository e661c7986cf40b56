import { splitIssuedIds } from "@/lib/chat-client/issued-ids";

/** Plain text with the ids it quotes (RR-…, CN-…) marked as data: translate="no". */
export function IssuedIdText({ text }: { text: string }) {
  return splitIssuedIds(text).map((piece, i) =>
    piece.id ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one fixed string, never reordered
      <span key={i} translate="no">
        {piece.text}
      </span>
    ) : (
      piece.text
    ),
  );
}
