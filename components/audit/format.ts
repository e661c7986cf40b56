/** A long id shortened for a table cell; the full value stays in the title and the link. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}
