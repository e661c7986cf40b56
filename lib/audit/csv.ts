/**
 * CSV for the audit export (RFC 4180: comma-separated, CRLF line ends, fields with a comma,
 * quote or line break are quoted, quotes doubled). Text a spreadsheet would run as a formula
 * (starting with = + - @, or a tab / carriage return that some apps strip first) is prefixed
 * with ' so opening the export never executes what a model or customer wrote (OWASP "CSV
 * injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : value instanceof Date
          ? value.toISOString()
          : JSON.stringify(value);
  // Numbers we wrote ourselves (ids, durations) are safe; anything textual is neutralised.
  if (typeof value !== "number" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
