// `npm start` on a fresh clone: build once if there is no production build, or if sources are
// newer than it, so `npm ci && npm start` is all a newcomer needs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const distDir = process.env.NEXT_DIST_DIR || ".next";
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
