import { expect, type Page } from "@playwright/test";

/**
 * "The page shows no English word": every Latin-script word a reader can meet on the page, in
 * visible text, in screen-reader-only text, and in the labels a screen reader speaks (aria-label,
 * placeholder, title, alt, the document title). Text inside an element whose `lang` differs from
 * the page's (the language switch offers "English" under its own name) is meant to be foreign
 * and is skipped, as is data marked translate="no" (ids, tool names). Words in `allowed` (order data, names, brands) pass.
 */
export async function latinWords(page: Page, allowed: Iterable<string>): Promise<string[]> {
  const allow = new Set([...allowed].map((w) => w.toLowerCase()));
  const texts = await page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    // Another language on purpose (the switch's "English"), or data marked not to translate
    // (ids, tool names, e-mail addresses: translate="no").
    const foreign = (el: Element | null) =>
      !!el?.closest('[translate="no"]') ||
      (!!el?.closest("[lang]") && el.closest("[lang]")?.getAttribute("lang") !== pageLang);
    const hidden = (el: Element) =>
      // sr-only text is clipped but rendered, so checkVisibility keeps it; display:none and
      // hidden panels (visibility) are not shown to anyone.
      !el.checkVisibility({ visibilityProperty: true });
    const out: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest("script,style,noscript,template") || foreign(el) || hidden(el))
        continue;
      out.push(n.textContent ?? "");
    }
    for (const el of document.body.querySelectorAll("[aria-label],[placeholder],[title],[alt]")) {
      if (foreign(el) || hidden(el)) continue;
      for (const a of ["aria-label", "placeholder", "title", "alt"])
        out.push(el.getAttribute(a) ?? "");
    }
    // A <select>'s options are read out even when closed.
    for (const o of document.body.querySelectorAll("option")) if (!foreign(o)) out.push(o.text);
    return out;
  });
  const words = new Set<string>();
  for (const t of texts)
    for (const w of t.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [])
      if (!allow.has(w.toLowerCase())) words.add(w);
  return [...words].sort();
}

/** Fails with the offending words listed, once the page has settled on `ready`. */
export async function expectNoEnglish(page: Page, allowed: Iterable<string>) {
  await expect.poll(() => latinWords(page, allowed), { timeout: 10_000 }).toEqual([]);
}
