/**
 * The test run's template databases: the place they live and their clean-up. A test run
 * (vitest's globalSetup, tests/helpers/global-setup.ts) opens a run: a folder for the SQLite
 * templates and a name prefix for the PostgreSQL ones, both carrying the run's process id, and
 * passes them to its worker processes in TEMPLATE_RUN_ENV. harness/db.ts then builds each
 * template the first time a test needs it and copies it for every test. Nothing here imports
 * db/: the main vitest process, which runs this, never opens a database of the product.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** Where a test process finds its run's templates (unset: every test seeds afresh). */
export const TEMPLATE_RUN_ENV = "RETURNS_DESK_TEST_TEMPLATES";
/** The PostgreSQL templates' names: rd_template_<pid>_<started, base 36>_<key>. */
const PG_PREFIX = "rd_template_";
/** A template left by a run whose process is still alive is stale only after this long. */
const STALE_MS = 24 * 3_600_000;

export type TemplateRun = {
  /** The SQLite templates' folder. */
  dir: string;
  /** The PostgreSQL templates' name prefix (ends with "_"). */
  prefix: string;
};

/** This process's run, from the environment its vitest main process gave it. */
export function templateRun(): TemplateRun | undefined {
  const raw = process.env[TEMPLATE_RUN_ENV];
  if (!raw) return undefined;
  return JSON.parse(raw) as TemplateRun;
}

/**
 * Opens a run (once per vitest process: every project's globalSetup calls this, the first one
 * wins) and returns its clean-up, or undefined when a run was already open. Templates a killed
 * run left on the PostgreSQL server are dropped first.
 */
export async function openTemplateRun(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[TEMPLATE_RUN_ENV]) return undefined;
  const started = Date.now().toString(36);
  const run: TemplateRun = {
    dir: fs.mkdtempSync(path.join(os.tmpdir(), `returns-desk-templates-${process.pid}-`)),
    prefix: `${PG_PREFIX}${process.pid}_${started}_`,
  };
  process.env[TEMPLATE_RUN_ENV] = JSON.stringify(run);
  removeStaleFolders();
  await dropTemplates((name) => isStale(name));
  return async () => {
    delete process.env[TEMPLATE_RUN_ENV];
    fs.rmSync(run.dir, { recursive: true, force: true });
    await dropTemplates((name) => name.startsWith(run.prefix));
  };
}

/** The SQLite template folders of runs whose process is gone (killed before its teardown). */
function removeStaleFolders(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const m = /^returns-desk-templates-(\d+)-/.exec(name);
    if (m && !alive(Number(m[1])))
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * A template is stale when the run that made it is over: its process is gone (checked only
 * when the server is on this machine, where process ids mean something), or it is older than a
 * day. Another run on this machine (another checkout, another agent) keeps its own.
 */
function isStale(name: string): boolean {
  const m = /^rd_template_(\d+)_([0-9a-z]+)_/.exec(name);
  if (!m) return false;
  if (Date.now() - Number.parseInt(m[2]!, 36) > STALE_MS) return true;
  return serverIsLocal() && !alive(Number(m[1]));
}

function serverIsLocal(): boolean {
  const host = new URL(process.env.TEST_DATABASE_URL!).hostname;
  return ["127.0.0.1", "localhost", "[::1]", "::1", ""].includes(host);
}

/** Drops (FORCE: a killed worker may have left a session) the templates `which` picks. */
async function dropTemplates(which: (name: string) => boolean): Promise<void> {
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [PG_PREFIX],
    );
    for (const { datname } of rows) {
      if (!which(datname)) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
