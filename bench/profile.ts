/**
 * In-process profile of the two hot paths, on unminified source (the production build's server
 * chunks are minified, so its profile names functions "oC" and "x"):
 *
 *   node --cpu-prof --cpu-prof-dir=bench/.out/prof --conditions=react-server --import tsx \
 *     bench/profile.ts [--turns=200]
 *
 * Calls the real route handlers (as the integration tests do) on a fresh large store: chat
 * turns (order status, return proposal) and confirms, timing each. Summary of the profile:
 * `npx tsx bench/profile.ts --summarize`. No Next.js server, so what remains is our code and the libraries it calls.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { parseUiStream } from "./lib/client";
import { mainProfile, summarizeProfile } from "./lib/profile";
import { returnableOrders, seedStore } from "./lib/seed";
import { percentile } from "./lib/stats";

if (process.argv.includes("--summarize")) {
  const file = mainProfile(path.resolve("bench/.out/prof"));
  console.log(file ? summarizeProfile(file) : "no profile in bench/.out/prof");
  process.exit(0);
}

const turns = Number(process.argv.find((a) => a.startsWith("--turns="))?.split("=")[1] ?? 200);
const BASE = "http://127.0.0.1:3000";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-profile-"));
process.env.DATABASE_PATH = path.join(dir, "app.db");
process.env.CHAT_RATE_LIMIT_PER_MINUTE = "10000";
process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE = "100000";
await seedStore(process.env.DATABASE_PATH, { customers: 5000, orders: 20000 });
const ro = new Database(process.env.DATABASE_PATH, { readonly: true });
const people = returnableOrders(ro, turns);
ro.close();

// Imported only now: they are server-only modules, which need the react-server condition.
const { POST: confirmRoute } = await import("@/app/api/actions/[id]/confirm/route");
const { POST: authRoute } = await import("@/app/api/auth/[...all]/route");
const { POST: sendRoute } = await import("@/app/api/chats/[id]/messages/route");
const { POST: newChatRoute } = await import("@/app/api/chats/route");

const req = (p: string, cookie = "", body?: unknown) =>
  new Request(`${BASE}${p}`, {
    method: "POST",
    headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

const times: Record<string, number[]> = { status: [], proposal: [], confirm: [] };
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const v = await fn();
  times[name]!.push(performance.now() - t);
  return v;
}

for (const who of people) {
  const signIn = await authRoute(
    req("/api/auth/sign-in/email", "", { email: who.email, password: "returns-demo" }),
  );
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (signIn.status !== 200) throw new Error(`sign-in ${signIn.status} ${await signIn.text()}`);
  const created = await newChatRoute(req("/api/chats", cookie), { params: Promise.resolve({}) });
  if (created.status !== 201) throw new Error(`new chat ${created.status} ${await created.text()}`);
  const chat = (await created.json()) as { chat: { id: string } };
  const say = (text: string) =>
    sendRoute(req(`/api/chats/${chat.chat.id}/messages`, cookie, { text }), ctx(chat.chat.id)).then(
      (r) => r.text(),
    );
  await timed("status", () => say(`Where is my order ${who.orderId}?`));
  const body = await timed("proposal", () =>
    say(`Create a return request for order ${who.orderId}. The item arrived damaged.`),
  );
  const card = parseUiStream(body).find((c) => c.type === "data-pending-action");
  const id = (card?.data as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`no proposal for ${who.email} ${who.orderId}`);
  await timed("confirm", () => confirmRoute(req(`/api/actions/${id}/confirm`, cookie), ctx(id)));
}

for (const [name, list] of Object.entries(times)) {
  const s = [...list].sort((a, b) => a - b);
  console.log(
    `${name}: n=${s.length} p50 ${percentile(s, 50).toFixed(2)} ms p95 ${percentile(s, 95).toFixed(2)} ms`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
console.log("profile written at exit; summary: npx tsx bench/profile.ts --summarize");
