// Picks a free port and a throwaway database for the e2e server, once per Playwright run.
// Runs synchronously from playwright.config.ts (config files cannot await).
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
