/** A long id shortened for a table cell; the full value stays in the title and the link. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

/**
 * A write answered from an existing record: `success`, but nothing written. Two ways: a repeat
 * request answered without an action (`result.written: false`, api.md), or a confirmed action
 * whose effect another action had already made (the tool's business key answered inside the
 * confirm transaction: `result.createdNow: false`). Shown as such so neither reads like an
 * executed write.
 */
export function nothingWritten(e: {
  access: string | null;
  status: string;
  result: unknown;
}): boolean {
  if (e.access !== "write" || e.status !== "success") return false;
  if (typeof e.result !== "object" || e.result === null) return false;
  const r = e.result as Record<string, unknown>;
  return (
    (Object.hasOwn(r, "written") && r.written === false) ||
    (Object.hasOwn(r, "createdNow") && r.createdNow === false)
  );
}

/**
 * An effect attempt's outcome (`effect:<kind>` events, docs/api.md): `succeeded`, `reconciled`,
 * `retry`, `failed` or `needs_attention`. The audit status alone cannot tell a retry from an
 * effect handed to staff (both `technical_error`), so the table shows it beside the status.
 */
export function effectOutcome(e: { tool: string; result: unknown }): string | null {
  if (!e.tool.startsWith("effect:")) return null;
  if (typeof e.result !== "object" || e.result === null) return null;
  const outcome = (e.result as Record<string, unknown>).outcome;
  return typeof outcome === "string" ? outcome : null;
}

/**
 * Statuses where something went wrong. Other events carry a code that only names the step (a
 * proposal's `confirmation_required`, a cancel's `user_cancelled`, an edit's `revised`, the
 * source course's convention, docs/api.md): nothing failed, so the pages do not call it an error.
 */
const ERROR_STATUSES: ReadonlySet<string> = new Set([
  "business_error",
  "technical_error",
  "timeout",
  "rejected",
  "stale",
]);

export const isErrorStatus = (status: string) => ERROR_STATUSES.has(status);

/** The event's error code when it says what went wrong; null when nothing did. */
export function errorShown(e: { status: string; errorCode: string | null }): string | null {
  return isErrorStatus(e.status) ? e.errorCode : null;
}
