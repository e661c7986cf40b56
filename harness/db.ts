import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { count, eq, getTableColumns, getTableName, is, Table } from "drizzle-orm";
import pg from "pg";
import { closeDb, type Db, execute, getConnection, getDb, sql } from "@/db";
import { databaseConfig } from "@/db/config";
import { initDatabase } from "@/db/init";
import { totalChanges } from "@/db/queries/tx";
import * as schema from "@/db/schema";
import { user } from "@/db/schema";
import * as sqliteTables from "@/db/schema/sqlite";
import { resetEnv } from "@/lib/env";
import { type TemplateRun, templateRun } from "./db-template";

/**
 * The dialect this test process runs on: vitest's "postgres" project sets TEST_DIALECT (see
 * vitest.config.ts) and tests/helpers/setup.ts points DATABASE_URL at TEST_DATABASE_URL before
 * any module is imported, so db/schema picks the PostgreSQL tables.
 */
export const onPostgres = () => process.env.TEST_DIALECT === "postgres";

/** Databases this process created on the test server, dropped when the file is done. */
const created: string[] = [];

/**
 * Points this test process at a fresh database (real migrations, demo seed) and returns it:
 * a new SQLite file, or on the "postgres" project a new PostgreSQL database created on
 * TEST_DATABASE_URL's server. `file` is what a worker process needs to reach the same database
 * (see workerEnv). Call from beforeAll/beforeEach.
 *
 * Under vitest the database is a copy of the run's template for the same dialect and seed
 * (migrated and seeded once per run, see templateFor), which costs milliseconds where migrating
 * and seeding cost a large share of a second; it holds exactly what a fresh seed would hold now.
 */
export async function useTestDatabase(
  opts: {
    /** seed: true (default) SEED_DEMO=1, false SEED_DEMO=0, "unset" leaves the choice to lib/env.ts. */
    seed?: boolean | "unset";
    env?: Record<string, string>;
    /** Migrate and seed this database itself instead of copying the run's template. */
    fresh?: boolean;
  } = {},
): Promise<{ db: Db; file: string; dir: string }> {
  await closeDb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-test-"));
  if (onPostgres()) {
    process.env.DATABASE_URL = serverUrl();
    // Several instances need one session secret; the env schema requires it with DATABASE_URL.
    process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
  }
  if (opts.seed === "unset") delete process.env.SEED_DEMO;
  else process.env.SEED_DEMO = opts.seed === false ? "0" : "1";
  for (const [k, v] of Object.entries(opts.env ?? {})) process.env[k] = v;
  // A test that names its own database location gets no copy: the template would be elsewhere.
  const reusable = !opts.fresh && !Object.keys(opts.env ?? {}).some((k) => LOCATION.includes(k));
  const template = reusable ? await templateFor() : undefined;
  let file = path.join(dir, "test.db");
  if (onPostgres()) {
    file = await createPostgresDatabase(template?.name);
    process.env.DATABASE_URL = file;
  } else {
    if (template) fs.copyFileSync(template.name, file);
    process.env.DATABASE_PATH = file;
  }
  // A test's own location wins, as it did before templates.
  for (const k of LOCATION) if (opts.env?.[k] !== undefined) process.env[k] = opts.env[k];
  resetEnv();
  // On a copy this finds every migration applied and the users seeded, and does nothing.
  await initDatabase();
  if (template) await moveSeedClock(template);
  return { db: getDb(), file, dir };
}

/** The variables that say where the database is. */
const LOCATION = ["DATABASE_PATH", "DATABASE_URL"];

/**
 * A migrated (and, with SEED_DEMO=1, seeded) database to copy: a SQLite file, or the name of a
 * PostgreSQL database. `made` is the seed's clock; `tables` are the tables the seed wrote
 * rows with times into, and those time columns.
 */
type Template = { name: string; made: number; tables: Record<string, string[]> };

/** This process's templates by key, once looked up or built. */
const templates = new Map<string, Promise<Template>>();

/**
 * The run's template for this process's dialect and the seed choice now in process.env, built
 * on first use; undefined outside a vitest run (eval/ calls useTestDatabase too), where every
 * database is seeded afresh.
 *
 * What decides a template's contents is its key: the dialect and SEED_DEMO as db/config.ts
 * resolves it (nothing else in the environment reaches the migrations or the seed), and the
 * seed's clock, which the copy moves (moveSeedClock). Several worker processes may miss the
 * template at once: each builds its own under a name of its own and publishes it with one atomic
 * step (a folder's rename on SQLite, a database's rename on PostgreSQL); a loser throws its
 * build away and takes the winner's, which holds the same.
 */
async function templateFor(): Promise<Template | undefined> {
  const run = templateRun();
  if (!run) return undefined;
  const key = `${onPostgres() ? "pg" : "sqlite"}_seed${databaseConfig().SEED_DEMO}`;
  let found = templates.get(key);
  if (!found) {
    found = onPostgres() ? postgresTemplate(run, key) : sqliteTemplate(run, key);
    templates.set(key, found);
    // A failed build is not kept: the next test tries again (and fails with the real error).
    found.catch(() => templates.delete(key));
  }
  return found;
}

/** Migrates and seeds the database process.env now points at, with the seed's clock at `made`. */
async function buildTemplate(): Promise<Omit<Template, "name">> {
  // The clock of the test that happens to build the template (fake or not) is as good as any:
  // every copy is moved from it to its own test's clock.
  const made = new Date();
  resetEnv();
  await initDatabase({ now: made });
  const tables = await timedTables();
  await closeDb();
  return { made: made.getTime(), tables };
}

async function sqliteTemplate(run: TemplateRun, key: string): Promise<Template> {
  const target = path.join(run.dir, key);
  const read = (): Template => ({
    ...(JSON.parse(fs.readFileSync(path.join(target, "meta.json"), "utf8")) as Template),
    name: path.join(target, "template.db"),
  });
  if (fs.existsSync(target)) return read();
  const building = fs.mkdtempSync(path.join(run.dir, `${key}.building-`));
  process.env.DATABASE_PATH = path.join(building, "template.db");
  const meta = await buildTemplate();
  // Closing the only connection checkpointed the WAL into the file and removed it: the file
  // alone is the whole database, so copying it is enough.
  for (const f of fs.readdirSync(building)) {
    if (f !== "template.db") throw new Error(`the SQLite template left ${f} beside it`);
  }
  fs.writeFileSync(path.join(building, "meta.json"), JSON.stringify(meta));
  try {
    fs.renameSync(building, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
    fs.rmSync(building, { recursive: true, force: true });
  }
  return read();
}

async function postgresTemplate(run: TemplateRun, key: string): Promise<Template> {
  const name = `${run.prefix}${key}`;
  const lookup = async (admin: pg.Client): Promise<Template | undefined> => {
    const { rows } = await admin.query<{ meta: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS meta FROM pg_database WHERE datname = $1",
      [name],
    );
    const meta = rows[0]?.meta;
    return meta ? { ...(JSON.parse(meta) as Template), name } : undefined;
  };
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    const found = await lookup(admin);
    if (found) return found;
    const building = `${name}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${building}"`);
    try {
      process.env.DATABASE_URL = withDatabase(building);
      const meta = await buildTemplate();
      // The description travels with the database, so the rename publishes both at once.
      await admin.query(
        `COMMENT ON DATABASE "${building}" IS ${admin.escapeLiteral(JSON.stringify(meta))}`,
      );
      // PostgreSQL copies a template only while nobody is connected to it: closeDb() ended
      // this process's pool, and no test ever connects to a template.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch (err) {
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      // Another worker published first (42P04: duplicate_database): take its template.
      if ((err as { code?: string }).code !== "42P04") throw err;
    } finally {
      process.env.DATABASE_URL = serverUrl();
    }
    const published = await lookup(admin);
    if (!published) throw new Error(`template database ${name} was not published`);
    return published;
  } finally {
    await admin.end();
  }
}

/**
 * The tables with rows and their time columns (epoch milliseconds on both dialects), by their
 * names in the database. Read from the SQLite tables, whose column names the PostgreSQL ones
 * share (tests/unit/schema-dialects.test.ts).
 */
async function timedTables(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [key, table] of Object.entries(schema.tables)) {
    const shape = (sqliteTables as Record<string, unknown>)[key];
    if (!is(table, Table) || !is(shape, Table)) continue;
    const columns = Object.values(getTableColumns(shape))
      .filter((c) => c.columnType === "SQLiteTimestamp")
      .map((c) => c.name);
    if (columns.length === 0) continue;
    const [row] = await getDb().select({ n: count() }).from(table);
    if ((row?.n ?? 0) > 0) out[getTableName(table)] = columns;
  }
  return out;
}

/**
 * Moves every time the seed wrote by the time since the template was made, so the copy holds
 * what seeding it now would have written. The seed's times are all `now` or whole days from it
 * (db/seed.ts), in epoch milliseconds: adding the difference gives exactly the values a seed at
 * this moment writes, on a fake clock (vi.setSystemTime) as well, however far it is from the
 * real one. The alternative, reusing a template only while the clock is within a few seconds
 * of it, would go stale within the first minute of a run and silently change a test's data
 * near a boundary (a return window's last day). tests/integration/test-database.test.ts holds
 * a copy equal to a fresh seed on a clock a year away.
 */
async function moveSeedClock(template: Template): Promise<void> {
  const delta = Date.now() - template.made;
  if (delta === 0) return;
  for (const [table, columns] of Object.entries(template.tables)) {
    const set = columns.map((c) => `"${c}" = "${c}" + ${delta}`).join(", ");
    await execute(sql.raw(`UPDATE "${table}" SET ${set}`));
  }
}

/** The environment a worker process needs to open the test's database (file or URL). */
export function workerEnv(file: string): Record<string, string> {
  return /^postgres(ql)?:\/\//.test(file) ? { DATABASE_URL: file } : { DATABASE_PATH: file };
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set (the postgres project needs it)");
  return url;
}

/** TEST_DATABASE_URL's server, database `name`. */
function withDatabase(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * CREATE DATABASE on the test server (empty, or a copy of `template`); returns its URL.
 * Dropped by dropTestDatabases().
 */
export async function createPostgresDatabase(template?: string): Promise<string> {
  const name = `rd_test_${process.pid}_${Date.now().toString(36)}_${created.length}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
  created.push(name);
  return withDatabase(name);
}

/** Drops every database this process created (FORCE: a killed worker may leave a session). */
export async function dropTestDatabases(): Promise<void> {
  await closeDb();
  if (created.length === 0) return;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    for (const name of created.splice(0))
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The better-sqlite3 handle under the SQLite connection, for SQLite-only tests (query plans). */
export function sqliteClient(): Database.Database {
  const conn = getConnection();
  if (conn.dialect !== "sqlite") throw new Error("a SQLite-only test ran on PostgreSQL");
  return conn.client;
}

/**
 * A mark that moves with any write to the database: SQLite's total_changes() (every row this
 * connection inserted, updated or deleted); on PostgreSQL a digest of every table's rows (its
 * statistics are flushed asynchronously, so they cannot tell "no write" reliably).
 */
export async function changeMark(): Promise<string> {
  if (!onPostgres()) return String(totalChanges());
  const conn = getConnection();
  if (conn.dialect !== "postgres") throw new Error("expected PostgreSQL");
  const parts: string[] = [];
  for (const t of Object.values(schema.tables)) {
    if (!is(t, Table)) continue;
    const name = getTableName(t);
    const { rows } = await conn.pool.query(
      `SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS h FROM "${name}" x`,
    );
    parts.push(`${name}:${rows[0]?.h}`);
  }
  return parts.join("|");
}

/** A user's id by email, on either dialect. */
export async function userIdOf(email: string): Promise<string> {
  const row = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row[0]) throw new Error(`no user ${email}`);
  return row[0].id;
}
