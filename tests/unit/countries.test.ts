/**
 * A country as customers write it, for the address change: names in any language and case, with
 * a full stop or spaces around them, ё written for е, two-letter codes; and where we ship, in a
 * sentence of each language.
 */
import { describe, expect, it } from "vitest";
import {
  countryCode,
  countryTo,
  shippingCountries,
} from "@/lib/tools/change-delivery-address/countries";

describe("countryCode", () => {
  it("reads names in any language and case, trimmed, without a closing full stop", () => {
    expect(countryCode("Germany")).toBe("DE");
    expect(countryCode("  ГЕРМАНИЮ.  ")).toBe("DE");
    expect(countryCode("the Netherlands.")).toBe("NL");
    expect(countryCode("Швеция")).toBe("SE");
    // ё is often written as е, and the other way round: the names are kept with е.
    expect(countryCode("Швёция")).toBe("SE");
  });

  it("reads a two-letter code as typed; 'us' and 'uk' are names", () => {
    expect(countryCode("de")).toBe("DE");
    expect(countryCode(" PL ")).toBe("PL");
    expect(countryCode("us")).toBe("US");
    expect(countryCode("uk")).toBe("GB");
  });

  it("anything else is no country", () => {
    for (const written of ["", "d", "deu", "de1", "Germanyland", "1de", "d.e"])
      expect(countryCode(written), written).toBeNull();
  });
});

describe("where we ship, in a sentence", () => {
  it("lists every shipping country, the last joined by the language's 'and'", () => {
    const en = shippingCountries("en");
    expect(en).toMatch(/^Germany, Austria, .+ and Poland$/);
    expect(en.split(", ")).toHaveLength(7);
    const ru = shippingCountries("ru");
    expect(ru).toMatch(/^Германию, Австрию, .+ и Польшу$/);
  });

  it("a country in a sentence, or its code when it has no name here", () => {
    expect(countryTo("GB", "en")).toBe("the United Kingdom");
    expect(countryTo("GB", "ru")).toBe("Великобританию");
    expect(countryTo("ZZ", "en")).toBe("ZZ");
    expect(countryTo("constructor", "en")).toBe("constructor");
  });
});
