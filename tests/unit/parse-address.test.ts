/**
 * How the offline model reads an address a customer wrote: street, an optional second line,
 * "postal code city", country, with or without the recipient's name in front, whatever comes
 * before it ("Sorry, it's …") or after it ("…, Germany instead. Thanks!"), and nothing when a part
 * is missing or more than fits. Its output is what the tool then validates; a wrong read proposes
 * the wrong address on the card.
 */
import { describe, expect, it } from "vitest";
import { parseAddress } from "@/lib/tools/change-delivery-address/offline";

const address = (over: Record<string, string | null> = {}) => ({
  name: null,
  line1: "Torstraße 1",
  line2: null,
  postalCode: "10119",
  city: "Berlin",
  country: "DE",
  ...over,
});

describe("parseAddress", () => {
  it.each([
    ["Torstraße 1, 10119 Berlin, Germany", address()],
    ["Torstraße 1, 10119 Berlin, DE.", address()],
    ["Sorry, it's Torstraße 1, 10119 Berlin, Germany instead. Thanks!", address()],
    ["Ok: Torstraße 1; 10119   Berlin ; Germany!!", address()],
    ["Anna Petrova, Torstraße 1, 10119 Berlin, Germany", address({ name: "Anna Petrova" })],
    ["Torstraße 1, Hinterhaus, 10119 Berlin, Germany", address({ line2: "Hinterhaus" })],
    [
      "Anna Petrova, Torstraße 1, Hinterhaus, 10119 Berlin, Germany",
      address({ name: "Anna Petrova", line2: "Hinterhaus" }),
    ],
    [
      "Keizersgracht 12, 1015 cs Amsterdam, Netherlands",
      address({
        line1: "Keizersgracht 12",
        postalCode: "1015 CS",
        city: "Amsterdam",
        country: "NL",
      }),
    ],
    [
      "ul. Długa 5, 00-238 Warszawa, Польша",
      address({ line1: "ul. Długa 5", postalCode: "00-238", city: "Warszawa", country: "PL" }),
    ],
    ["Вот: Torstraße 1, 10119 Berlin, Германия пожалуйста", address()],
  ])("%s", (text, expected) => {
    expect(parseAddress(text)).toEqual(expected);
  });

  it.each([
    ["no country", "Torstraße 1, 10119 Berlin"],
    ["no postal code", "Torstraße 1, Berlin, Germany"],
    ["not a country", "Torstraße 1, 10119 Berlin, Atlantis"],
    ["no street", "10119 Berlin, Germany"],
    ["three lines before the city", "Torstraße 1, Hinterhaus, 3. OG, 10119 Berlin, Germany"],
    ["a city that is not a name", "Torstraße 1, 10119 123, Germany"],
  ])("%s: none", (_name, text) => {
    expect(parseAddress(text)).toBeNull();
  });
});
