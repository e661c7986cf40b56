/**
 * Properties of the free-text normaliser (lib/text/free-text.ts) on arbitrary Unicode mixed with
 * everything it removes: a fixed point (stored text parses to itself, so a payload hash holds),
 * none of the removed classes left, NFC, trimmed, and one line unless the field is multi-line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freeText } from "@/lib/text/free-text";

const HOSTILE = [
  "\u0000",
  "\u0007",
  "\u001B",
  "\u007F",
  "\u0085",
  "\u009B",
  "\r",
  "\n",
  "\r\n",
  "\t",
  " ",
  "\u00A0",
  "\u2028",
  "\u061C",
  "\u200B",
  "\u200C",
  "\u200D",
  "\u200E",
  "\u200F",
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2060",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\uFEFF",
  // Decomposed letters and marks, so that a removed character can sit between a letter and its
  // mark; a lone surrogate.
  "e\u0301",
  "\u0301",
  "\u2000",
  "\uD800",
  "👩",
  "\u{1F3FD}",
  "\uFE0F",
];
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: "binary" }),
      fc.constantFrom(...HOSTILE),
    ),
  )
  .map((parts) => parts.join(""));

/** Every C0 and C1 control but the newline, which only a multi-line field keeps. */
const CONTROLS = /[^\P{Cc}\n]/u;
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u;
/** The one zero-width character kept: a joiner between two pictographs of an emoji sequence. */
const EMOJI_JOINER =
  /(?<=\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D(?=\p{Extended_Pictographic})/gu;

describe("freeText", () => {
  for (const multiline of [false, true]) {
    describe(multiline ? "multi-line" : "one line", () => {
      it("is idempotent", () => {
        fc.assert(
          fc.property(text, (raw) => {
            const once = freeText(raw, { multiline });
            expect(freeText(once, { multiline })).toBe(once);
          }),
        );
      });

      it("leaves no control, bidi or zero-width character; NFC, trimmed, well formed", () => {
        fc.assert(
          fc.property(text, (raw) => {
            const out = freeText(raw, { multiline });
            expect(out).not.toMatch(CONTROLS);
            expect(out.replace(EMOJI_JOINER, "")).not.toMatch(INVISIBLE);
            expect(out.normalize("NFC")).toBe(out);
            expect(out.trim()).toBe(out);
            expect(out.isWellFormed()).toBe(true);
            if (!multiline) expect(out).not.toMatch(/\n|\s{2}/);
          }),
        );
      });
    });
  }

  it("keeps what is typed otherwise: letters, digits, punctuation, emoji, line breaks where allowed", () => {
    expect(freeText("  Hauptstr.\u200B 5,\r\n\t10115 Berlin 👍 ")).toBe(
      "Hauptstr. 5, 10115 Berlin 👍",
    );
    expect(freeText("line one\r\nline\u0000 two\rthree", { multiline: true })).toBe(
      "line one\nline two\nthree",
    );
    expect(freeText("Cafe\u200B\u0301")).toBe("Café");
    expect(freeText("👩\u200D👩\u200D👧 zero\u200Dwidth\u200D")).toBe(
      "👩\u200D👩\u200D👧 zerowidth",
    );
  });
});
