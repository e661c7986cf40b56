/**
 * The test database itself (harness/db.ts): a test gets a copy of the run's template, migrated
 * and seeded once per run, and that copy holds what migrating and seeding its own database
 * would have written at the same moment, on either database and on any clock: the seed's times
 * are relative to now (delivered N days ago, return windows, expiries), and a test may have set
 * a fake one.
 */
import fs from "node:fs";
import path from "node:path";
import { getTableName, is, Table } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import * as schema from "@/db/schema";
import { templateRun } from "@/harness/db-template";
import { onPostgres, useTestDatabase } from "../helpers/db";

const DAY = 86_400_000;

/**
 * Every row of every table, in a stable order. What is random by design is named instead of
 * compared: a user's id by the user's email (everywhere it appears), an account's id, and the
 * password hash (its salt; it is checked to be a hash of the same form).
 */
async function contents(): Promise<Record<string, unknown[]>> {
  const db = getDb();
  const users = await db.select().from(schema.user);
  const named = new Map(users.map((u) => [u.id, `user:${u.email}`]));
  const out: Record<string, unknown[]> = {};
  for (const table of Object.values(schema.tables)) {
    if (!is(table, Table)) continue;
    const rows = (await db.select().from(table)) as Record<string, unknown>[];
    out[getTableName(table)] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => {
            if (getTableName(table) === "account" && k === "id") return [k, "(random)"];
            if (k === "password" && typeof v === "string") {
              expect(v).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
              return [k, "(hash)"];
            }
            return [k, typeof v === "string" ? (named.get(v) ?? v) : v];
          }),
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

describe("the test database", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is a copy of the run's template, which the run made once", async () => {
    await useTestDatabase();
    const run = templateRun();
    expect(run).toBeDefined();
    if (onPostgres()) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
          `${run!.prefix}pg_seed1`,
        ]);
        expect(rows).toHaveLength(1);
      } finally {
        await admin.end();
      }
    } else {
      expect(fs.existsSync(path.join(run!.dir, "sqlite_seed1", "template.db"))).toBe(true);
    }
  });

  for (const seed of [true, false, "unset"] as const) {
    for (const days of [400, -400]) {
      it(`seed ${seed}, on a clock ${days} days away: the copy equals a fresh seed`, async () => {
        // The template is made (if this run has not made it yet) on the real clock...
        await useTestDatabase({ seed });
        // ...and the test's clock is frozen far from it, to the millisecond.
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + days * DAY + 12_345 });
        await useTestDatabase({ seed });
        const copy = await contents();
        await useTestDatabase({ seed, fresh: true });
        const fresh = await contents();
        expect(copy).toEqual(fresh);
        if (seed === true || (seed === "unset" && !onPostgres())) {
          expect(copy.orders!.length).toBeGreaterThan(0);
          // The seed writes an order's updated_at as its now: the copy's is the test's clock.
          for (const o of copy.orders as { updatedAt: Date }[])
            expect(o.updatedAt.getTime()).toBe(Date.now());
        } else {
          expect(copy.user).toEqual([]);
        }
      });
    }
  }
});
