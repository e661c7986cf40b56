/**
 * Canonical JSON and the payload hash stored with every pending action. Canonical = object keys
 * sorted at every depth, no whitespace, so the same payload always hashes the same whatever key
 * order the model (or a JSON round trip through SQLite) produced.
 */
import { createHash } from "node:crypto";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new TypeError("canonicalJson: non-finite number");
    }
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const object = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, which is all a canonical order needs; the keys
  // of one object are distinct, so no tie-break is needed either.
  const keys = Object.keys(object)
    .filter((k) => object[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`).join(",")}}`;
}

/** SHA-256 (hex) of the canonical JSON of what confirm will execute and for whom. */
export function payloadHash(payload: { tool: string; userId: string; arguments: unknown }): string {
  return createHash("sha256").update(canonicalJson(payload), "utf8").digest("hex");
}
