/**
 * A rehype step for the assistant's markdown: ids the app issued (RR-…, CN-…) quoted in text
 * become <span translate="no">, as on the confirm card (lib/chat-client/issued-ids.ts). Code
 * spans and blocks are left as they are.
 */
import { splitIssuedIds } from "./issued-ids";

/** The part of a hast tree this step reads and writes. */
type HastNode = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
};

function mark(parent: HastNode): void {
  if (!parent.children) return;
  const out: HastNode[] = [];
  for (const child of parent.children) {
    if (child.type === "text" && typeof child.value === "string") {
      for (const piece of splitIssuedIds(child.value))
        out.push(
          piece.id
            ? {
                type: "element",
                tagName: "span",
                properties: { translate: "no" },
                children: [{ type: "text", value: piece.text }],
              }
            : { type: "text", value: piece.text },
        );
    } else {
      if (child.type === "element" && child.tagName !== "code" && child.tagName !== "pre")
        mark(child);
      out.push(child);
    }
  }
  parent.children = out;
}

export function rehypeIssuedIds() {
  return (tree: HastNode) => mark(tree);
}
