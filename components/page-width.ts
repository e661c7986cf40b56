/**
 * How wide each kind of page is. The header takes the width of the page it sits on, so its
 * edges line up with the content below: the orders page and audit details are a centred column,
 * the audit table a wider one, and the chat (sidebar + conversation) spans the whole window.
 */
export const PAGE_WIDTH = {
  page: "mx-auto w-full max-w-5xl px-4",
  wide: "mx-auto w-full max-w-7xl px-4",
  full: "w-full px-4",
} as const;

export type PageWidth = keyof typeof PAGE_WIDTH;
