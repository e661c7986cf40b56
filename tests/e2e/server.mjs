// Picks free ports and a throwaway data folder for the e2e servers, once per Playwright run, and
// says where each server keeps its database. Runs synchronously from playwright.config.ts
// (config files cannot await); tests/e2e/servers.ts reads the same choices back in the workers.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function freePort() {
  const out = execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ]);
  return Number(String(out).trim());
}

export function throwawayDir(name) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `returns-desk-${name}-`));
}

/**
 * The e2e servers: the environment variable holding each one's port, and its database folder
 * under E2E_DATA_DIR ("" for the main server).
 */
/** The main server's EMBED_JWT_SECRET: the e2e store page signs its customers' tokens with it. */
export const EMBED_SECRET = "e2e-store-secret-e2e-store-secret-0123456";

export const SERVERS = {
  main: { portVar: "E2E_PORT", folder: "" },
  strict: { portVar: "E2E_PORT_STRICT", folder: "strict" },
  "no-model": { portVar: "E2E_PORT_NO_MODEL", folder: "no-model" },
};

/** Where a server's SQLite file lives. */
export function databasePath(dataDir, server) {
  return path.join(dataDir, SERVERS[server].folder, "app.db");
}

/**
 * E2E_DATABASE_URL (a PostgreSQL server where this user may CREATE DATABASE) runs the e2e servers
 * on PostgreSQL instead of SQLite files: one database per server, named after this run's data
 * folder, created here before the servers start and dropped by tests/e2e/teardown.mjs.
 */
export function databaseUrl(dataDir, server) {
  const base = process.env.E2E_DATABASE_URL;
  if (!base) return null;
  const run = path
    .basename(dataDir)
    .replace(/[^a-zA-Z0-9]/g, "_")
    .toLowerCase();
  const url = new URL(base);
  url.pathname = `/rd_${run}_${server.replace(/-/g, "_")}`;
  return url.toString();
}

/** The database variables of one e2e server (SQLite file, or PostgreSQL URL plus the secret). */
export function databaseEnv(dataDir, server) {
  const url = databaseUrl(dataDir, server);
  return url
    ? { DATABASE_URL: url, BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456" }
    : { DATABASE_PATH: databasePath(dataDir, server) };
}

/** Creates (create = true) or drops every e2e server's PostgreSQL database; synchronous. */
export function postgresDatabases(dataDir, create) {
  if (!process.env.E2E_DATABASE_URL) return;
  const names = Object.keys(SERVERS).map((s) => new URL(databaseUrl(dataDir, s)).pathname.slice(1));
  const sql = names.map((n) =>
    create ? `CREATE DATABASE "${n}"` : `DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`,
  );
  execFileSync(
    process.execPath,
    [
      "-e",
      `const pg=require("pg");(async()=>{const c=new pg.Client({connectionString:process.env.E2E_DATABASE_URL});await c.connect();for(const q of JSON.parse(process.argv[1]))await c.query(q);await c.end()})().catch(e=>{console.error(e.message);process.exit(1)})`,
      JSON.stringify(sql),
    ],
    { stdio: "inherit" },
  );
}
