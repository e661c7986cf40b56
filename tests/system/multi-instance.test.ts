/**
 * Issue 12: three production servers (`node scripts/serve.mjs`, the build `npm start` runs) on
 * one fresh PostgreSQL database, behind no load balancer: the test itself spreads requests over
 * the three. Runs in the "postgres" vitest project only (it needs TEST_DATABASE_URL).
 *
 * - Started at once, they migrate once and seed the demo once (advisory lock).
 * - 48 confirms of one action spread over the three: one execution, one return row, the other
 *   47 get already_decided.
 * - A message to one chat sent to two instances at once: one turn, the other gets 409
 *   turn_in_progress. The model (a local OpenAI-compatible stub) holds the first turn open until
 *   the second has been answered, so "at once" needs no timing.
 * - The chat rate limit counts a customer's messages across instances.
 * - One instance is SIGKILLed in the middle of a burst of confirms and restarted: nothing stays
 *   `executing`, one return per order, the audit matches the tables, every 200 is kept.
 */
import { and, eq, gte, like } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer, parseUiStream, pendingActionOf } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { closeDb, getDb } from "@/db";
import { orders, user } from "@/db/schema";
import { seedLarge } from "@/db/seed";
import { resetEnv } from "@/lib/env";
import { createPostgresDatabase } from "../helpers/db";
import { offlineResponder } from "../helpers/offline-openai";
import { type OpenAIServer, type Script, startOpenAIServer } from "../helpers/openai-server";
import { DIST_DIR } from "./lib/world";

/** The parts of a confirm's JSON answer the checks read. */
type ApiBody = {
  result?: { requestId?: string; orderId?: string; createdNow?: boolean };
  error?: { code?: string };
};

const HOLD = "HOLD-THIS-TURN";
const SECRET = "multi-instance-secret-multi-instance-0123";
const CHAT_LIMIT = 5;

let url: string;
let model: OpenAIServer;
let client: pg.Client;
const servers: Server[] = [];
let env: Record<string, string>;

/** The model: answers like the offline model, except that a HOLD message never finishes. */
function responder() {
  const offline = offlineResponder();
  return (request: Parameters<ReturnType<typeof offlineResponder>>[0], i: number): Script => {
    const last = JSON.stringify(request.body.messages.at(-1) ?? "");
    return last.includes(HOLD) ? { type: "hang" } : offline(request, i);
  };
}

const boot = (port?: number) =>
  startServer({
    distDir: DIST_DIR,
    dbPath: "/nonexistent/ignored-with-DATABASE_URL.db",
    env,
    port,
  });

/** A request to instance `i` with a customer's session (sessions live in the shared database). */
function post(i: number, c: HttpCustomer, path: string, body?: unknown): Promise<Response> {
  const base = servers[i]!.url;
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { cookie: c.cookie, origin: base, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []) {
  return (await client.query(sql, params)).rows as T[];
}

async function propose(i: number, c: HttpCustomer, orderId: string): Promise<string> {
  const created = await post(i, c, "/api/chats");
  expect(created.status).toBe(201);
  const chat = ((await created.json()) as { chat: { id: string } }).chat.id;
  const res = await post(i, c, `/api/chats/${chat}/messages`, {
    text: `Create a return request for order ${orderId}. The item arrived damaged.`,
  });
  expect(res.status).toBe(200);
  const action = pendingActionOf(parseUiStream(await res.text()));
  if (!action) throw new Error(`no proposal for ${c.email} ${orderId}`);
  return action.id;
}

beforeAll(async () => {
  ensureBuild(DIST_DIR);
  url = await createPostgresDatabase();
  model = await startOpenAIServer(responder());
  env = {
    DATABASE_URL: url,
    BETTER_AUTH_SECRET: SECRET,
    MODEL_PROVIDER: "openai",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_MODEL: "loopback-1",
    CHAT_RATE_LIMIT_PER_MINUTE: String(CHAT_LIMIT),
    CHAT_TURN_DEADLINE_SECONDS: "30",
    DATABASE_POOL_SIZE: "5",
  };
  // All three start at once on the empty database.
  servers.push(...(await Promise.all([boot(), boot(), boot()])));
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The test process reads and seeds through the project's own code on the same database.
  process.env.DATABASE_URL = url;
  process.env.SEED_DEMO = "0";
  resetEnv();
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await client?.end();
  await model?.close();
  await closeDb();
});

describe("three instances on one PostgreSQL database", () => {
  it("started at once, they migrated once and seeded the demo once", async () => {
    const [migrations] = await rows<{ n: string }>(
      "SELECT count(*) n FROM drizzle.__drizzle_migrations",
    );
    expect(Number(migrations!.n)).toBe(1);
    const users = await rows<{ email: string }>('SELECT email FROM "user" ORDER BY email');
    expect(users.map((u) => u.email)).toEqual([
      "anna@example.com",
      "boris@example.com",
      "staff@example.com",
    ]);
    const [o] = await rows<{ n: string }>("SELECT count(*) n FROM orders");
    expect(Number(o!.n)).toBeGreaterThan(0);
    expect(
      new Set((await rows<{ id: string }>("SELECT id FROM orders")).map((r) => r.id)).size,
    ).toBe(Number(o!.n));
  });

  it("48 confirms of one action over three instances: one execution, 47 already_decided", async () => {
    const anna = await HttpCustomer.signIn(servers[0]!.url, "anna@example.com");
    const actionId = await propose(0, anna, "7718");
    const answers = await Promise.all(
      Array.from({ length: 48 }, async (_, i) => {
        const res = await post(i % 3, anna, `/api/actions/${actionId}/confirm`);
        return { status: res.status, body: (await res.json()) as ApiBody };
      }),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.result).toMatchObject({ orderId: "7718", createdNow: true });
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.error?.code])).toEqual(
      Array(47).fill([409, "already_decided"]),
    );
    expect(await rows("SELECT id FROM return_requests WHERE order_id = '7718'")).toHaveLength(1);
    expect(await rows("SELECT status FROM pending_actions WHERE id = $1", [actionId])).toEqual([
      { status: "executed" },
    ]);
    const audit = await rows<{ status: string }>(
      "SELECT status FROM audit_events WHERE action_id = $1 ORDER BY id",
      [actionId],
    );
    expect(audit.map((e) => e.status)).toEqual(["confirmation_required", "success"]);
  });

  it("a message to one chat on two instances at once: one turn, the other 409 turn_in_progress", async () => {
    const anna = await HttpCustomer.signIn(servers[1]!.url, "anna@example.com");
    const chat = await anna.newChat();
    const seen = model.requests.length;
    const abort = new AbortController();
    const first = fetch(`${servers[1]!.url}/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { cookie: anna.cookie, origin: servers[1]!.url, "content-type": "application/json" },
      body: JSON.stringify({ text: `${HOLD}: where is order 8041?` }),
      signal: abort.signal,
    });
    // The first turn holds the chat's lease once its model call has arrived at the stub.
    while (!model.requests.slice(seen).some((r) => JSON.stringify(r.body).includes(HOLD)))
      await new Promise((r) => setTimeout(r, 20));
    const second = await post(2, anna, `/api/chats/${chat}/messages`, {
      text: "Where is order 8041?",
    });
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe("turn_in_progress");
    // The held turn is the one turn: its stream is open (the stub's close() ends it for good).
    const held = await first;
    expect(held.status).toBe(200);
    await held.body?.cancel().catch(() => undefined);
    abort.abort();
  });

  it("the chat rate limit counts a customer's messages on every instance", async () => {
    const boris = await HttpCustomer.signIn(servers[0]!.url, "boris@example.com");
    const chat = await boris.newChat();
    for (let i = 0; i < CHAT_LIMIT; i++) {
      const res = await post(i % 3, boris, `/api/chats/${chat}/messages`, { text: "Hello!" });
      expect(res.status, `message ${i + 1}`).toBe(200);
      await res.text();
    }
    const over = await post(CHAT_LIMIT % 3, boris, `/api/chats/${chat}/messages`, {
      text: "Hello again!",
    });
    expect(over.status).toBe(429);
    expect((await over.json()).error.code).toBe("rate_limited");
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("SIGKILL of one instance mid-burst, then restart: no action executing, every 200 kept", async () => {
    // Customers with a returnable order each, written through the project's seed code.
    await seedLarge({ customers: 60, ordersCount: 240 });
    const since = new Date(Date.now() - 25 * 86_400_000);
    const picks = new Map<string, string>();
    for (const r of await getDb()
      .select({ email: user.email, orderId: orders.id })
      .from(orders)
      .innerJoin(user, eq(user.id, orders.userId))
      .where(
        and(
          eq(orders.status, "delivered"),
          gte(orders.deliveredAt, since),
          like(user.email, "customer%@bench.example.com"),
        ),
      )
      .orderBy(orders.id)) {
      if (r.orderId.length === 4 && !picks.has(r.email)) picks.set(r.email, r.orderId);
    }
    const chosen = [...picks].slice(0, 12);
    expect(chosen.length).toBe(12);
    const proposals: { c: HttpCustomer; actionId: string; orderId: string }[] = [];
    for (const [i, [email, orderId]] of chosen.entries()) {
      const c = await HttpCustomer.signIn(servers[i % 3]!.url, email);
      proposals.push({ c, actionId: await propose(i % 3, c, orderId), orderId });
    }

    // The burst: every action confirmed on every instance; instance 2 dies after the first answer.
    const victim = servers[2]!;
    const victimPort = Number(new URL(victim.url).port);
    let killed: Promise<void> | undefined;
    const outcomes = await Promise.all(
      proposals.flatMap((p) =>
        [0, 1, 2].map(async (i) => {
          try {
            const res = await post(i, p.c, `/api/actions/${p.actionId}/confirm`);
            const body = (await res.json()) as ApiBody;
            killed ??= victim.stop("SIGKILL");
            return {
              p,
              status: res.status,
              requestId: body.result?.requestId as string | undefined,
            };
          } catch {
            return { p, status: "lost" as const, requestId: undefined };
          }
        }),
      ),
    );
    await (killed ?? victim.stop("SIGKILL"));
    servers[2] = await boot(victimPort);

    // Whatever the client heard, the database must agree with it.
    const states = new Map(
      (
        await rows<{ id: string; status: string; rid: string | null }>(
          `SELECT a.id, a.status, r.id rid FROM pending_actions a
           LEFT JOIN return_requests r ON r.operation_id = a.id WHERE a.id = ANY($1)`,
          [proposals.map((p) => p.actionId)],
        )
      ).map((r) => [r.id, r]),
    );
    for (const o of outcomes.filter((x) => x.status === 200)) {
      expect(states.get(o.p.actionId)).toMatchObject({ status: "executed", rid: o.requestId });
    }
    // Each action: at most one 200 over all three instances.
    for (const p of proposals) {
      expect(outcomes.filter((o) => o.p === p && o.status === 200).length).toBeLessThanOrEqual(1);
    }
    // A confirm whose answer was lost can be retried on any instance and settles it.
    for (const p of proposals.filter((x) => states.get(x.actionId)?.status === "pending")) {
      const res = await post(0, p.c, `/api/actions/${p.actionId}/confirm`);
      expect(res.status).toBe(200);
    }
    expect(await brokenInvariants()).toEqual({});
  }, 300_000);
});

/** PostgreSQL versions of tests/system/lib/crash-checks.ts: each query returns offending rows. */
async function brokenInvariants(): Promise<Record<string, unknown[]>> {
  const checks: Record<string, string> = {
    "no action is left executing": "SELECT id FROM pending_actions WHERE status = 'executing'",
    "at most one return per order":
      "SELECT order_id, count(*) n FROM return_requests GROUP BY order_id HAVING count(*) > 1",
    "every return row belongs to an executed action for the same order": `
      SELECT r.id, r.order_id, a.status FROM return_requests r
      LEFT JOIN pending_actions a ON a.id = r.action_id
      WHERE a.id IS NULL OR a.status <> 'executed' OR a.arguments->>'orderId' <> r.order_id`,
    "every executed action has its return row": `
      SELECT a.id FROM pending_actions a
      WHERE a.status = 'executed' AND a.tool = 'create_return_request' AND NOT EXISTS (
        SELECT 1 FROM return_requests r WHERE r.operation_id = a.id OR r.action_id = a.id)`,
    "every action was proposed exactly once in the audit": `
      SELECT * FROM (SELECT a.id, (SELECT count(*) FROM audit_events e
        WHERE e.action_id = a.id AND e.status = 'confirmation_required') n
        FROM pending_actions a) x WHERE n <> 1`,
    "every decided action has exactly one matching decision event": `
      SELECT a.id, a.status, count(e.id) n FROM pending_actions a
      LEFT JOIN audit_events e ON e.action_id = a.id AND e.status = CASE a.status
        WHEN 'executed' THEN 'success' WHEN 'failed' THEN 'technical_error'
        WHEN 'cancelled' THEN 'cancelled' WHEN 'expired' THEN 'expired'
        WHEN 'superseded' THEN 'superseded' WHEN 'stale' THEN 'stale' END
      WHERE a.status <> 'pending' GROUP BY a.id, a.status HAVING count(e.id) <> 1`,
    "no decision event for an action still pending, and no success for an unexecuted one": `
      SELECT e.id, e.status, a.status action_status FROM audit_events e
      JOIN pending_actions a ON a.id = e.action_id
      WHERE (a.status = 'pending' AND e.status <> 'confirmation_required')
         OR (e.status = 'success' AND a.status <> 'executed')`,
  };
  const broken: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(checks)) {
    const found = await rows(sql);
    if (found.length > 0) broken[name] = found;
  }
  return broken;
}
