/**
 * NUL never goes into storage. PostgreSQL's text and jsonb cannot hold it (an insert with one
 * fails, and the turn or the audit event with it), and in SQLite it would be kept and served back
 * to browsers, terminals and staff. Model output is the usual source: a provider may answer with
 * NUL in its text, or `\u0000` inside a tool call's JSON arguments, which parses to a NUL.
 */

/** `value` with NUL removed from every string in it, keys included; other values as they are. */
export function withoutNul<T>(value: T): T {
  if (typeof value === "string")
    return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === "object" && isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[withoutNul(k)] = withoutNul(v);
    return out as T;
  }
  return value;
}

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
