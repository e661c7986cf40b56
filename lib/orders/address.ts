/**
 * An order's delivery address: its shape (declared once, here), the shipping countries and their
 * postal codes. Client-safe (zod only): change_delivery_address, get_order_status, the orders page
 * and the API read the same shape.
 */
import { z } from "zod";
import { freeText } from "@/lib/text/free-text";

/**
 * Where we ship, and what a postal code looks like there (after normalising: upper case, one
 * space). A country not listed here is refused by the policy (`country_not_shipped`).
 */
export const SHIPPING_COUNTRIES = {
  DE: /^\d{5}$/,
  AT: /^\d{4}$/,
  BE: /^\d{4}$/,
  NL: /^\d{4} ?[A-Z]{2}$/,
  FR: /^\d{5}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
  PL: /^\d{2}-\d{3}$/,
} as const satisfies Record<string, RegExp>;
export type ShippingCountry = keyof typeof SHIPPING_COUNTRIES;

export function isShippingCountry(code: string): code is ShippingCountry {
  return Object.hasOwn(SHIPPING_COUNTRIES, code);
}

/** Whether `postalCode` (normalised) is one of `country`'s. */
export function validPostalCode(country: string, postalCode: string): boolean {
  return isShippingCountry(country) && SHIPPING_COUNTRIES[country].test(postalCode);
}

/**
 * One line of an address, as free text (lib/text/free-text.ts): no control characters (a NUL
 * would not even reach PostgreSQL), no bidi or zero-width characters (they would reach staff
 * pages and the warehouse's label looking like another address), whitespace collapsed, NFC;
 * 1..max characters. Normalising inside the schema keeps stored arguments a fixed point (see
 * lib/tools/normalize.ts).
 */
const line = (max: number) =>
  z
    .string()
    .transform((v) => freeText(v))
    .pipe(z.string().min(1).max(max));

export const ADDRESS = z.strictObject({
  name: line(100),
  line1: line(120),
  line2: z
    .string()
    .nullish()
    .transform((v) => (v == null ? null : freeText(v) || null))
    .pipe(z.string().max(120).nullable()),
  /** Upper case, one space at most; checked against the country's format by the policy. */
  postalCode: z
    .string()
    .transform((v) => freeText(v).toUpperCase())
    .pipe(
      z
        .string()
        .min(2)
        .max(12)
        .regex(/^[A-Z0-9][A-Z0-9 -]*$/),
    ),
  city: line(80),
  /** ISO 3166-1 alpha-2, upper case. */
  country: z
    .string()
    .transform((v) => freeText(v).toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}$/, "country is a two-letter ISO code, e.g. DE")),
});
export type Address = z.output<typeof ADDRESS>;

/**
 * A new delivery address as a customer gives it: people moving a parcel rarely type their own
 * name, so the recipient may be left out (null) and stays the order's current one
 * (`withRecipient`). Everything else is required as in ADDRESS.
 */
export const NEW_ADDRESS = ADDRESS.extend({
  name: z
    .string()
    .nullish()
    .transform((v) => (v == null ? null : freeText(v) || null))
    .pipe(z.string().max(100).nullable()),
});
export type NewAddress = z.output<typeof NEW_ADDRESS>;

/** The new address with its recipient: the one given, else the order's current one (or null). */
export function withRecipient(to: NewAddress, current: Address | null): Address | null {
  const name = to.name ?? current?.name;
  return name ? { ...to, name } : null;
}

/** The address as stored and shown (already normalised): what plans, results and the API carry. */
export const STORED_ADDRESS = z.strictObject({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
});

export function sameAddress(a: Address | null, b: Address | null): boolean {
  if (!a || !b) return a === b;
  return (
    a.name === b.name &&
    a.line1 === b.line1 &&
    (a.line2 ?? null) === (b.line2 ?? null) &&
    a.postalCode === b.postalCode &&
    a.city === b.city &&
    a.country === b.country
  );
}

/** One line for people: "Anna Smith, Hauptstr. 5, 10115 Berlin, DE". */
export function addressLine(a: Address): string {
  return [a.name, a.line1, a.line2, `${a.postalCode} ${a.city}`, a.country]
    .filter((p) => p)
    .join(", ");
}

/** The order row's address columns as an address, or null when the order has none on record. */
export function orderAddress(o: {
  deliveryName: string | null;
  deliveryLine1: string | null;
  deliveryLine2: string | null;
  deliveryPostalCode: string | null;
  deliveryCity: string | null;
  deliveryCountry: string | null;
}): Address | null {
  if (!o.deliveryName || !o.deliveryLine1 || !o.deliveryPostalCode || !o.deliveryCity) return null;
  if (!o.deliveryCountry) return null;
  return {
    name: o.deliveryName,
    line1: o.deliveryLine1,
    line2: o.deliveryLine2,
    postalCode: o.deliveryPostalCode,
    city: o.deliveryCity,
    country: o.deliveryCountry,
  };
}
