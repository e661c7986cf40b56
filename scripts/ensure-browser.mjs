// Before the e2e suite: use Debian's /usr/bin/chromium when it is there (CI, this workplace);
// otherwise make sure Playwright's own Chromium is installed (a laptop without system Chromium).
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const SYSTEM_CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (fs.existsSync(SYSTEM_CHROMIUM)) process.exit(0);

const { chromium } = await import("@playwright/test");
if (fs.existsSync(chromium.executablePath())) process.exit(0);

console.log("No system Chromium found: installing Playwright's Chromium…");
const r = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
process.exit(r.status ?? 1);
