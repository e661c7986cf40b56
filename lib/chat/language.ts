export type Lang = "en" | "ru";

/** Cyrillic letters outnumbering Latin ones means Russian; everything else gets English. */
export function detectLanguage(text: string): Lang {
  const cyr = text.match(/[\u0400-\u04FF]/g)?.length ?? 0;
  const lat = text.match(/[A-Za-z]/g)?.length ?? 0;
  return cyr > lat ? "ru" : "en";
}
