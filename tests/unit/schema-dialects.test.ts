/**
 * The two schemas (db/schema/sqlite.ts, db/schema/pg.ts) must give the same row types: db/queries
 * is written once and typed against the SQLite tables, and runs on the PostgreSQL ones. The
 * assertions are checked by `npm run typecheck`; the test body checks the same table names and
 * columns at run time.
 */
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as pg from "@/db/schema/pg";
import * as sqlite from "@/db/schema/sqlite";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Rows<S> = {
  [K in keyof S]: S[K] extends { $inferSelect: infer R } ? R : never;
};
type Inserts<S> = {
  [K in keyof S]: S[K] extends { $inferInsert: infer R } ? R : never;
};
const rowsMatch: Same<Rows<typeof sqlite>, Rows<typeof pg>> = true;
const insertsMatch: Same<Inserts<typeof sqlite>, Inserts<typeof pg>> = true;

const tablesOf = (m: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(m)
      .filter(([, v]) => is(v, Table))
      .map(([k, v]) => [
        k,
        {
          name: getTableName(v as never),
          columns: Object.values(getTableColumns(v as never)).map(
            (c) => (c as { name: string }).name,
          ),
        },
      ]),
  );

describe("the SQLite and PostgreSQL schemas", () => {
  it("have the same row types (checked by the compiler)", () => {
    expect(rowsMatch && insertsMatch).toBe(true);
  });

  it("have the same tables and column names", () => {
    expect(tablesOf(pg)).toEqual(tablesOf(sqlite));
    expect(Object.keys(tablesOf(sqlite)).length).toBeGreaterThan(10);
  });
});
