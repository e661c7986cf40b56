// `npm start` on a fresh clone: build once if there is no production build, or if sources are
// newer than it, so `npm ci && npm start` is all a newcomer needs.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = process.cwd();
const distDir = process.env.NEXT_DIST_DIR || ".next";

// Two runs that share a build (npm test's e2e runs on SQLite and PostgreSQL start side by side)
// must not both build into the same folder: the second waits for the first under flock(1), then
// finds the build fresh and does nothing. Without flock (not Linux) it runs unlocked, as before.
if (!process.env.ENSURE_BUILD_LOCKED) {
  const hasFlock = spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0;
  if (hasFlock) {
    const key = createHash("sha256").update(path.resolve(root, distDir)).digest("hex").slice(0, 16);
    const lock = path.join(os.tmpdir(), `returns-desk-build-${key}.lock`);
    const r = spawnSync("flock", [lock, process.execPath, import.meta.filename], {
      stdio: "inherit",
      env: { ...process.env, ENSURE_BUILD_LOCKED: "1" },
    });
    process.exit(r.status ?? 1);
  }
}
const buildId = path.join(root, distDir, "BUILD_ID");
const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "messages",
  "instrumentation.ts",
  "next.config.mjs",
  "package-lock.json",
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p))
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
if (built === 0 || sources > built) {
  console.log(built === 0 ? "No production build yet: building…" : "Sources changed: rebuilding…");
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: process.env });
  process.exit(r.status ?? 1);
}
