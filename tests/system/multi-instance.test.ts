/**
 * Several instances on one PostgreSQL database: three production servers
 * (scripts/serve.mjs, what `npm start` runs) share a fresh database and nothing else. Every
 * guarantee the app advertises must hold across them, not just inside one process:
 * - three instances starting at once on an empty database migrate once and seed the demo once;
 * - 48 confirms of one action spread over the three: one execution, one return, the rest
 *   `already_decided`;
 * - a message to a chat while another instance is answering it: `409 turn_in_progress`;
 * - the chat rate limit counts the customer's messages on every instance together;
 * - an instance SIGKILLed in the middle of a burst of confirms and restarted: nothing stays
 *   `executing`, one return per order, the audit matches the tables, every 200 is kept, and a
 *   confirm whose answer was lost can be retried on any instance.
 *
 * Runs in vitest's "postgres" project (TEST_DATABASE_URL); the model is the offline model behind
 * the loopback OpenAI-protocol server, so one turn can be held open on purpose.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer, pendingActionOf } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { closeDb } from "@/db";
import { seedDemoLikeUser } from "@/db/seed";
import { DEMO_ORDERS } from "@/db/seed-data";
import { resetEnv } from "@/lib/env";
import { createPostgresDatabase } from "../helpers/db";
import { offlineResponder } from "../helpers/offline-openai";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";
import { DIST_DIR } from "./lib/world";

const INSTANCES = 3;
const CONFIRMS = 48;
const CHAT_LIMIT = 4;
const BURST = 12;
const SECRET = "multi-instance-secret-multi-instance-secret";
/**
 * A message with this word is answered only when the test opens `slowGate`: the turn is held open
 * for as long as the test acts, however slow the machine (a fixed delay was not always enough
 * for the second request to arrive first on a loaded machine).
 */
const SLOW = "SLOWLY";
const RETURN = (order: string) =>
  `Create a return request for order ${order}. The item arrived damaged.`;

let url: string;
let dir: string;
let db: pg.Client;
let model: OpenAIServer;
let slowRequests = 0;
let openSlowGate: () => void = () => {};
let slowGate: Promise<void> = Promise.resolve();
const servers: Server[] = [];

function env(): Record<string, string> {
  return {
    DATABASE_URL: url,
    BETTER_AUTH_SECRET: SECRET,
    // PostgreSQL seeds the demo store only when asked; this test wants it.
    SEED_DEMO: "1",
    MODEL_PROVIDER: "openai",
    OPENAI_API_KEY: "test",
    OPENAI_BASE_URL: model.baseURL,
    CHAT_RATE_LIMIT_PER_MINUTE: String(CHAT_LIMIT),
    AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
  };
}

const start = (port?: number) =>
  startServer({ distDir: DIST_DIR, dbPath: path.join(dir, "unused.db"), env: env(), port });

/** A request to instance `i` as the signed-in `who` (the cookie is valid on every instance). */
function on(i: number, who: HttpCustomer, p: string, body?: unknown): Promise<Response> {
  const base = servers[i]!.url;
  const headers: Record<string, string> = { cookie: who.cookie, origin: base };
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(`${base}${p}`, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const errorCode = async (res: Response) =>
  ((await res.json()) as { error?: { code?: string } }).error?.code;

/** A new customer shaped like demo Anna (her orders copied under fresh ids), in this database. */
async function newAnna(tag: string): Promise<{ email: string; order7718: string }> {
  const email = `anna-${tag}-${Date.now().toString(36)}@multi.example.com`;
  const { orderIds } = await seedDemoLikeUser({ like: "anna", email });
  return { email, order7718: orderIds["7718"]! };
}

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

beforeAll(async () => {
  ensureBuild(DIST_DIR);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-multi-"));
  // An empty database: the three instances below migrate and seed it themselves.
  url = await createPostgresDatabase();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  const offline = offlineResponder();
  model = await startOpenAIServer((request, index) => {
    if (JSON.stringify(request.body.messages.at(-1) ?? "").includes(SLOW)) {
      slowRequests++;
      return {
        type: "text",
        text: "Let me look into that for you, one moment please.",
        gate: slowGate,
      };
    }
    return offline(request, index);
  });
  servers.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => start()))));
  // This process seeds extra customers into the same database through the app's own code.
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET = SECRET;
  resetEnv();
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await model?.close();
  await db?.end();
  await closeDb();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("three instances on one PostgreSQL database", () => {
  it("started together on an empty database: migrated once, demo seeded once", async () => {
    for (const s of servers) expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
    const [users] = await rows<{ n: string }>(
      `SELECT count(*) n FROM "user" WHERE email = 'anna@example.com'`,
    );
    expect(Number(users!.n)).toBe(1);
    const [orders] = await rows<{ n: string }>("SELECT count(*) n FROM orders");
    expect(Number(orders!.n)).toBe(DEMO_ORDERS.length);
    const migrations = await rows<{ hash: string }>(
      "SELECT hash FROM drizzle.__drizzle_migrations",
    );
    expect(new Set(migrations.map((m) => m.hash)).size).toBe(migrations.length);
    const files = fs
      .readdirSync(path.resolve(import.meta.dirname, "../../db/migrations/pg"))
      .filter((f) => f.endsWith(".sql"));
    expect(migrations).toHaveLength(files.length);
  });

  it("48 confirms of one action over three instances: one execution, the rest already_decided", async () => {
    const anna = await HttpCustomer.signIn(servers[0]!.url, "anna@example.com");
    const chat = await anna.newChat();
    const action = pendingActionOf(await anna.say(chat, RETURN("7718")));
    expect(action).not.toBeNull();
    const answers = await Promise.all(
      Array.from({ length: CONFIRMS }, (_, i) =>
        on(i % INSTANCES, anna, `/api/actions/${action!.id}/confirm`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(CONFIRMS - 1);
    const codes = await Promise.all(answers.filter((r) => r.status === 409).map(errorCode));
    expect(new Set(codes)).toEqual(new Set(["already_decided"]));

    const returns = await rows("SELECT id FROM return_requests WHERE order_id = '7718'");
    expect(returns).toHaveLength(1);
    const [stored] = await rows<{ status: string }>(
      "SELECT status FROM pending_actions WHERE id = $1",
      [action!.id],
    );
    expect(stored!.status).toBe("executed");
    const successes = await rows(
      // Its decision; the relay's attempts at its effects are events under "effect:<kind>".
      "SELECT id FROM audit_events WHERE action_id = $1 AND status = 'success' AND tool NOT LIKE 'effect:%'",
      [action!.id],
    );
    expect(successes).toHaveLength(1);
  });

  it("a message to a chat another instance is answering gets 409 turn_in_progress", async () => {
    const { email } = await newAnna("turn");
    const who = await HttpCustomer.signIn(servers[0]!.url, email);
    const chat = await who.newChat();
    const before = slowRequests;
    slowGate = new Promise((open) => {
      openSlowGate = open;
    });
    const first = on(0, who, `/api/chats/${chat}/messages`, { text: `Hello ${SLOW}` });
    // The model has the first turn's request: that turn holds the chat now (no timing guess).
    while (slowRequests === before) await new Promise((r) => setTimeout(r, 20));
    const second = await on(1, who, `/api/chats/${chat}/messages`, { text: "Where is 8041?" });
    expect(second.status).toBe(409);
    expect(await errorCode(second)).toBe("turn_in_progress");
    openSlowGate();
    const done = await first;
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`"type":"finish"`);
    // Only the first turn was kept: its question and its answer.
    const messages = await rows<{ role: string }>(
      "SELECT role FROM messages WHERE chat_id = $1 ORDER BY seq",
      [chat],
    );
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("the chat rate limit counts a customer's messages on every instance together", async () => {
    const { email } = await newAnna("limit");
    const who = await HttpCustomer.signIn(servers[0]!.url, email);
    const chat = await who.newChat();
    const statuses: number[] = [];
    // One message per instance in turn: each instance alone sees at most two of them.
    for (let i = 0; i < CHAT_LIMIT + 2; i++) {
      const res = await on(i % INSTANCES, who, `/api/chats/${chat}/messages`, {
        text: "What is your return policy?",
      });
      statuses.push(res.status);
      if (res.status === 429) expect(await errorCode(res)).toBe("rate_limited");
      else await res.text();
    }
    expect(statuses).toEqual([...Array.from({ length: CHAT_LIMIT }, () => 200), 429, 429]);
  });

  describe("SIGKILL of one instance in a burst of confirms", () => {
    type Proposal = { who: HttpCustomer; actionId: string; orderId: string };
    type Outcome = { p: Proposal; instance: number; status: number | "lost"; requestId?: string };
    const outcomes: Outcome[] = [];
    const KILLED = 1;

    beforeAll(async () => {
      const proposals: Proposal[] = [];
      for (let i = 0; i < BURST; i++) {
        const { email, order7718 } = await newAnna(`burst${i}`);
        const base = servers[i % INSTANCES]!.url;
        const who = await HttpCustomer.signIn(base, email);
        const action = pendingActionOf(await who.say(await who.newChat(), RETURN(order7718)));
        if (!action) throw new Error(`no proposal for ${email}`);
        proposals.push({ who, actionId: action.id, orderId: order7718 });
      }
      let answered = 0;
      let killed: Promise<void> | undefined;
      const results = await Promise.all(
        proposals.map(async (p, i): Promise<Outcome> => {
          const instance = i % INSTANCES;
          try {
            const res = await on(instance, p.who, `/api/actions/${p.actionId}/confirm`);
            const body = (await res.json()) as { result?: { requestId?: string } };
            // The plug is pulled as soon as that instance answers its first confirm: its other
            // confirms are still in flight (or in their transaction) at that moment.
            if (instance === KILLED && ++answered === 1) killed = servers[KILLED]!.stop("SIGKILL");
            return { p, instance, status: res.status, requestId: body.result?.requestId };
          } catch {
            return { p, instance, status: "lost" };
          }
        }),
      );
      outcomes.push(...results);
      await killed;
      // Back on the same address, as a supervisor would restart it.
      servers[KILLED] = await start(Number(new URL(servers[KILLED]!.url).port));
    }, 10 * 60_000);

    it("the other instances kept answering", () => {
      const survivors = outcomes.filter((o) => o.instance !== KILLED);
      expect(survivors.map((o) => o.status)).toEqual(survivors.map(() => 200));
    });

    it("left no action executing, one return per order, and an audit that matches", async () => {
      expect(await rows("SELECT id FROM pending_actions WHERE status = 'executing'")).toEqual([]);
      expect(
        await rows("SELECT order_id FROM return_requests GROUP BY order_id HAVING count(*) > 1"),
      ).toEqual([]);
      // Every executed action has its return, and exactly one success event (its decision; the
      // relay's attempts at its effects, such as the confirmation mail, are events under
      // "effect:<kind>"); nothing else does.
      expect(
        await rows(`
          SELECT a.id FROM pending_actions a
          WHERE a.status = 'executed' AND (
            (SELECT count(*) FROM return_requests r WHERE r.operation_id = a.id) <> 1
            OR (SELECT count(*) FROM audit_events e
                WHERE e.action_id = a.id AND e.status = 'success'
                  AND e.tool NOT LIKE 'effect:%') <> 1)`),
      ).toEqual([]);
      expect(
        await rows(`
          SELECT r.id FROM return_requests r
          LEFT JOIN pending_actions a ON a.id = r.operation_id
          WHERE a.id IS NULL OR a.status <> 'executed'
             OR (a.arguments->>'orderId') <> r.order_id`),
      ).toEqual([]);
      expect(
        await rows(`
          SELECT e.id FROM audit_events e JOIN pending_actions a ON a.id = e.action_id
          WHERE (a.status = 'pending' AND e.status <> 'confirmation_required')
             OR (e.status = 'success' AND a.status <> 'executed')`),
      ).toEqual([]);
    });

    it("kept every confirm that was answered 200, with the return it reported", async () => {
      for (const o of outcomes.filter((x) => x.status === 200)) {
        const [row] = await rows<{ status: string; return_id: string | null }>(
          `SELECT a.status, r.id return_id FROM pending_actions a
           LEFT JOIN return_requests r ON r.operation_id = a.id WHERE a.id = $1`,
          [o.p.actionId],
        );
        expect(row).toEqual({ status: "executed", return_id: o.requestId });
      }
    });

    it("lets a customer whose answer was lost retry on any instance: done once, never twice", async () => {
      for (const o of outcomes.filter((x) => x.status === "lost")) {
        const res = await on(
          (o.instance + 1) % INSTANCES,
          o.p.who,
          `/api/actions/${o.p.actionId}/confirm`,
        );
        // Either the killed instance had committed it (already decided) or it never started.
        expect([200, 409]).toContain(res.status);
        if (res.status === 409) expect(await errorCode(res)).toBe("already_decided");
      }
      const orders = outcomes.map((o) => o.p.orderId);
      const made = await rows<{ order_id: string }>(
        "SELECT order_id FROM return_requests WHERE order_id = ANY($1)",
        [orders],
      );
      expect(made.map((r) => r.order_id).sort()).toEqual([...orders].sort());
    });
  });
});
