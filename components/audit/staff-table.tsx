import type { ReactNode } from "react";

/**
 * The one table of the staff pages (the work queue, returns, handoffs, an action's effects): the
 * same markup, spacing and header semantics everywhere, so a page only says its columns and rows.
 * Each row is its own <tbody>, so a row can carry a full-width detail line under it (an effect's
 * attempts) and the pair still reads as one group.
 */
export type StaffColumn<Row> = {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Numbers line up on the right. */
  numeric?: boolean;
  /** The cell's own data-testid (tests read a cell by it). */
  testId?: string;
};

export function StaffTable<Row>({
  columns,
  rows,
  rowKey,
  rowData,
  detail,
  testId,
  labelledBy,
}: {
  columns: readonly StaffColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** data-* attributes (and a data-testid) of a row's group, for the browser tests. */
  rowData?: (row: Row) => Record<`data-${string}`, string | undefined>;
  /** A full-width line under the row, or null. */
  detail?: (row: Row) => ReactNode | null;
  testId?: string;
  /** The id of the heading that names the table, when the page has one. */
  labelledBy?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid={testId} aria-labelledby={labelledBy}>
        <thead className="text-xs text-slate-600">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={`py-1 pr-3 ${c.numeric ? "text-right" : ""}`.trim()}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        {rows.map((row) => {
          const more = detail?.(row);
          return (
            <tbody
              key={rowKey(row)}
              className="border-t border-slate-100 align-top"
              {...rowData?.(row)}
            >
              <tr>
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={`py-2 pr-3 ${c.numeric ? "text-right tabular-nums" : ""}`.trim()}
                    data-testid={c.testId}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
              {more ? (
                <tr>
                  <td colSpan={columns.length} className="pb-2">
                    {more}
                  </td>
                </tr>
              ) : null}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
