"use client";
import { EMBED_MESSAGES, EMBED_SOURCE } from "@/lib/embed/protocol";

/**
 * The frame's side of the postMessage protocol (lib/embed/protocol.ts). A message goes to the
 * parent once per allowed store origin: the browser delivers it only if the parent really is at
 * that origin, so nothing reaches a page that is not one of the stores.
 */
export function toParent(allowed: readonly string[], type: string, data?: Record<string, unknown>) {
  if (window.parent === window) return;
  for (const origin of allowed)
    window.parent.postMessage({ source: EMBED_SOURCE, type, ...data }, origin);
}

/** A message from the parent page at an allowed origin, or null for anything else. */
export function fromParent(
  event: MessageEvent,
  allowed: readonly string[],
): { type: string; token?: unknown; locale?: unknown } | null {
  if (event.source !== window.parent || window.parent === window) return null;
  if (!allowed.includes(event.origin)) return null;
  const data = event.data as { source?: unknown; type?: unknown } | null;
  if (!data || data.source !== EMBED_SOURCE || typeof data.type !== "string") return null;
  return data as { type: string };
}

/** Escape in the frame closes the panel; shutdown ends the session. Both pages of /embed do this. */
export function listenForPage(
  allowed: readonly string[],
  onMessage?: (event: MessageEvent) => void,
) {
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") toParent(allowed, EMBED_MESSAGES.close);
  };
  const onMsg = (event: MessageEvent) => {
    const msg = fromParent(event, allowed);
    if (!msg) return;
    if (msg.type === EMBED_MESSAGES.shutdown) {
      void fetch("/api/embed/session", { method: "DELETE" }).finally(() =>
        toParent(allowed, EMBED_MESSAGES.signedOut),
      );
      return;
    }
    onMessage?.(event);
  };
  document.addEventListener("keydown", onKey);
  window.addEventListener("message", onMsg);
  return () => {
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("message", onMsg);
  };
}
