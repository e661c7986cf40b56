/**
 * The messages the store page's widget (/widget.js) and our iframe (/embed) exchange with
 * postMessage. Each side sends only to the other's exact origin and accepts a message only from
 * the window it expects and from an allowed origin: the widget from our origin and its own
 * frame, the frame from its parent and an origin in EMBED_ALLOWED_ORIGINS.
 */
export const EMBED_SOURCE = "returns-desk";

export const EMBED_MESSAGES = {
  /** frame -> page: loaded, send the token. */
  ready: "ready",
  /** page -> frame: `{token, locale}`; the token may be absent (a visitor not signed in). */
  boot: "boot",
  /** frame -> page: the session started or not (`{ok, code}`). */
  session: "session",
  /** frame -> page: the customer pressed Escape in the frame. */
  close: "close",
  /** frame -> page: the content's height, for the panel. */
  resize: "resize",
  /** page -> frame: end the session (the store's own sign-out). */
  shutdown: "shutdown",
  /** frame -> page: the session is gone. */
  signedOut: "signed-out",
} as const;

export type EmbedMessageType = (typeof EMBED_MESSAGES)[keyof typeof EMBED_MESSAGES];
