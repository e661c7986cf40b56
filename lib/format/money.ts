/** Minor units to a localized amount, e.g. 25890 EUR -> "€258.90". */
export function formatMoney(minor: number, currency: string, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
