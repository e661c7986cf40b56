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
export const SERVERS = {
  main: { portVar: "E2E_PORT", folder: "" },
  strict: { portVar: "E2E_PORT_STRICT", folder: "strict" },
  "no-model": { portVar: "E2E_PORT_NO_MODEL", folder: "no-model" },
};

/** Where a server's SQLite file lives. */
export function databasePath(dataDir, server) {
  return path.join(dataDir, SERVERS[server].folder, "app.db");
}
