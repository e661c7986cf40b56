/** A long id shortened for a table cell; the full value stays in the title and the link. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

/**
 * A write answered from an existing record (a repeat return): `success`, but no action and
 * nothing written. Shown as such so it never reads like an executed write (api.md).
 */
export function nothingWritten(e: {
  access: string | null;
  status: string;
  actionId: string | null;
  result: unknown;
}): boolean {
  return (
    e.access === "write" &&
    e.status === "success" &&
    e.actionId === null &&
    typeof e.result === "object" &&
    e.result !== null &&
    Object.hasOwn(e.result, "written") &&
    (e.result as { written: unknown }).written === false
  );
}
