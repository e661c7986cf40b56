// Lighthouse CI over the production build (npm run test:lighthouse, part of npm test).
//
// Reuses the build the e2e suite made (scripts/ensure-build.mjs builds only when the sources are
// newer), starts it as the e2e suite does on a free port with a throwaway SQLite database and the
// demo store, and seeds what the signed-in pages show through the app's own HTTP API: Anna asks
// about an order, confirms a return, then gets a cancellation proposed in a second chat, whose
// confirm card stays open for the run. Then @lhci/cli collects each page (lighthouserc.json:
// desktop preset, Debian's Chromium, 3 runs) with the session's cookie in extraHeaders, and
// asserts on the median run. The per-page medians are printed for docs/benchmarks.md.
//
// And a store's page on another site (localhost:<port>, the app being 127.0.0.1) with the widget
// (/widget.js and ReturnsDesk.boot) and the same page without it: the store page's performance
// must be at least 95, and the difference in total blocking time is what the widget adds.
//
//   node scripts/lighthouse.mjs            LIGHTHOUSE_RUNS=1 for a quicker look
//   LIGHTHOUSE_PAGES=store node scripts/lighthouse.mjs   only the store page, with and without
//
// Lighthouse is CPU heavy: on a shared machine run it under the lock (flock /tmp/heavy.lock ...).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, throwawayDir } from "../tests/e2e/server.mjs";

// `node scripts/lighthouse.mjs --store-server <port> <app base>`: only the store's page (below).
if (process.argv[2] === "--store-server") {
  const [port, appBase] = [Number(process.argv[3]), process.argv[4]];
  storeServer(`http://localhost:${port}`, appBase).listen(port, "localhost");
  await new Promise(() => {});
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const lhci = path.join(root, "node_modules", ".bin", "lhci");
const rc = JSON.parse(fs.readFileSync(path.join(root, "lighthouserc.json"), "utf8"));
const chromePath = process.env.CHROMIUM_PATH || rc.ci.collect.chromePath;
const runs = Number(process.env.LIGHTHOUSE_RUNS) || rc.ci.collect.numberOfRuns;
const resultsDir = path.join(root, ".lighthouseci");
const reportDir = path.join(root, "test-results", "lighthouse");

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...options });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args[0]} exited ${r.status}`);
}

if (!fs.existsSync(chromePath)) {
  console.error(`Lighthouse needs Chromium at ${chromePath} (CHROMIUM_PATH overrides).`);
  process.exit(1);
}
run(process.execPath, ["scripts/ensure-build.mjs"]);

const port = freePort();
const base = `http://127.0.0.1:${port}`;
const storePort = freePort();
const storeBase = `http://localhost:${storePort}`;
const onlyStore = process.env.LIGHTHOUSE_PAGES === "store";
const dataDir = throwawayDir("lighthouse");
const server = spawn(
  process.execPath,
  ["scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"],
  {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_PATH: path.join(dataDir, "app.db"),
      DATABASE_URL: "",
      SEED_DEMO: "1",
      MODEL_PROVIDER: "offline",
      OPENAI_API_KEY: "",
      LOG_LEVEL: "warn",
      // The card must still be open when the last run of /chat/{id} loads it.
      PENDING_ACTION_TTL_SECONDS: "3600",
      // The store page below may embed the chat.
      EMBED_ALLOWED_ORIGINS: storeBase,
      EMBED_JWT_SECRET: "lighthouse-store-secret-lighthouse-store-secret",
    },
  },
);
// A process of its own: collecting runs lhci synchronously, which would stall a server in this one.
const store = spawn(
  process.execPath,
  ["scripts/lighthouse.mjs", "--store-server", String(storePort), base],
  { stdio: ["ignore", "ignore", "inherit"] },
);
const stop = () => {
  if (server.exitCode === null) server.kill("SIGTERM");
  if (store.exitCode === null) store.kill("SIGTERM");
};
process.on("exit", stop);

let failed = false;
try {
  await waitForHealth();
  fs.rmSync(resultsDir, { recursive: true, force: true });
  const groups = [{ cookie: null, origin: storeBase, paths: ["/shop", "/shop-without-widget"] }];
  if (!onlyStore) {
    const anna = await signIn("anna@example.com");
    const staff = await signIn("staff@example.com");
    const chatId = await seedChats(anna);
    groups.push(
      { cookie: null, paths: ["/sign-in"] },
      { cookie: anna, paths: ["/", `/chat/${chatId}`] },
      { cookie: staff, paths: ["/audit", "/audit/metrics"] },
    );
  }
  for (const group of groups) collect(group);
  const medians = printMedians();
  failed = !widgetWithinBudget(medians);
  fs.rmSync(reportDir, { recursive: true, force: true });
  run(lhci, ["upload", "--target=filesystem", `--outputDir=${reportDir}`]);
  console.log(`Lighthouse reports: ${path.relative(root, reportDir)}/`);
  const assert = spawnSync(lhci, ["assert", "--config=lighthouserc.json"], { stdio: "inherit" });
  failed = failed || assert.status !== 0;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  failed = true;
} finally {
  stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

async function waitForHealth() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not answer /api/health within 120 s");
}

/** Signs in through better-auth's endpoint; returns the Cookie header of that session. */
async function signIn(email) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: "returns-demo" }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function api(cookie, method, route, body) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { cookie, origin: base, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status}`);
  return res;
}

/** One message to the offline model, stream read to the end; the proposed action's id, if any. */
async function say(cookie, chatId, text) {
  const res = await api(cookie, "POST", `/api/chats/${chatId}/messages`, { text });
  for (const line of (await res.text()).split("\n")) {
    if (!line.startsWith("data: {")) continue;
    const chunk = JSON.parse(line.slice(6));
    if (chunk.type === "data-pending-action" && chunk.id) return chunk.id;
  }
  return null;
}

/** Traffic for the audit and metrics pages, and a chat with an open confirm card. */
async function seedChats(cookie) {
  const newChat = async () => (await (await api(cookie, "POST", "/api/chats")).json()).chat.id;
  const first = await newChat();
  await say(cookie, first, "Where is order 8041?");
  const returnId = await say(
    cookie,
    first,
    "Create a return request for order 7718. The item arrived damaged.",
  );
  if (!returnId) throw new Error("the offline model proposed no return for 7718");
  await api(cookie, "POST", `/api/actions/${returnId}/confirm`);
  const second = await newChat();
  const cancelId = await say(cookie, second, "I ordered it by mistake, please cancel 3004");
  if (!cancelId) throw new Error("the offline model proposed no cancellation for 3004");
  const view = await (await api(cookie, "GET", `/api/chats/${second}`)).json();
  if (!JSON.stringify(view).includes(cancelId)) throw new Error("the chat shows no open card");
  return second;
}

/**
 * A store's page, as a shop would have it: a heading, some text, an image-free product list, and
 * (on /shop) the widget's script tag with ReturnsDesk.boot for a visitor. /shop-without-widget
 * is the same page without the script, the baseline for what the widget costs.
 */
function storeServer(storeBase, base) {
  const products = Array.from(
    { length: 12 },
    (_, i) => `<li><h2>Coffee machine ${i + 1}</h2><p>Espresso, 15 bar, €${199 + i * 10}.</p></li>`,
  ).join("");
  const html = (widget) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="description" content="A store's page for Lighthouse, with and without the chat widget.">` +
    `<link rel="icon" href="data:,"><title>Test store</title></head><body><main><h1>Test store</h1><ul>${products}</ul></main>` +
    (widget
      ? `<script src="${base}/widget.js" async onload='ReturnsDesk.boot({"token":null,"locale":"en"})'></script>`
      : "") +
    `</body></html>`;
  return http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", storeBase).pathname;
    if (path === "/shop" || path === "/shop-without-widget") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html(path === "/shop"));
    } else if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    } else {
      res.writeHead(404).end();
    }
  });
}

/** The store page with the widget: performance at least 95; prints the TBT it adds. */
function widgetWithinBudget(medians) {
  const withWidget = medians.get("/shop");
  const without = medians.get("/shop-without-widget");
  if (!withWidget || !without) return false;
  const perf = Math.round(withWidget.categories.performance.score * 100);
  const tbt = (l) => l.audits["total-blocking-time"].numericValue;
  console.log(
    `Store page with the widget: performance ${perf} (at least 95); total blocking time ${Math.round(tbt(withWidget))} ms against ${Math.round(tbt(without))} ms without it (the widget adds ${Math.round(tbt(withWidget) - tbt(without))} ms).`,
  );
  return perf >= 95;
}

function collect({ cookie, paths, origin = base }) {
  const config = {
    ci: {
      collect: {
        ...rc.ci.collect,
        chromePath,
        numberOfRuns: runs,
        url: paths.map((p) => `${origin}${p}`),
        settings: { ...rc.ci.collect.settings, ...(cookie ? { extraHeaders: { cookie } } : {}) },
      },
    },
  };
  const file = path.join(dataDir, "lighthouserc.json");
  fs.writeFileSync(file, JSON.stringify(config));
  // --additive keeps the groups before this one in .lighthouseci/.
  run(lhci, ["collect", `--config=${file}`, "--additive"]);
}

/** Per page, the run with the median performance score (LHCI asserts on its own median run). */
function printMedians() {
  const byPage = new Map();
  for (const f of fs.readdirSync(resultsDir).filter((n) => /^lhr-.*\.json$/.test(n))) {
    const lhr = JSON.parse(fs.readFileSync(path.join(resultsDir, f), "utf8"));
    const page = new URL(lhr.requestedUrl).pathname.replace(/\/chat\/[^/]+$/, "/chat/{id}");
    byPage.set(page, [...(byPage.get(page) ?? []), lhr]);
  }
  const score = (lhr, c) => Math.round(lhr.categories[c].score * 100);
  const ms = (lhr, a) => `${Math.round(lhr.audits[a].numericValue)} ms`;
  console.log(
    `\nLighthouse ${[...byPage.values()][0]?.[0]?.lighthouseVersion}, desktop, median of ${runs} (${os.cpus().length} cores)`,
  );
  console.log(
    "| page | performance | accessibility | best practices | SEO | TBT | LCP | runs (performance) |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [page, lhrs] of byPage) {
    const sorted = [...lhrs].sort((a, b) => score(a, "performance") - score(b, "performance"));
    const m = sorted[Math.floor((sorted.length - 1) / 2)];
    console.log(
      `| \`${page}\` | ${score(m, "performance")} | ${score(m, "accessibility")} | ${score(m, "best-practices")} | ${score(m, "seo")} | ${ms(m, "total-blocking-time")} | ${ms(m, "largest-contentful-paint")} | ${lhrs.map((l) => score(l, "performance")).join(", ")} |`,
    );
  }
  console.log("");
  const medians = new Map();
  for (const [page, lhrs] of byPage) {
    const sorted = [...lhrs].sort((a, b) => score(a, "performance") - score(b, "performance"));
    medians.set(page, sorted[Math.floor((sorted.length - 1) / 2)]);
  }
  return medians;
}
