/**
 * A million audit events shaped like a busy support desk: mostly order-status reads, proposals
 * and their decisions, a few refusals and failures, a trickle of unknown tool names. Spread over
 * 90 days, newest last; 1% are stamped earlier than their id suggests (an expiry is written at
 * its deadline when the sweep notices it), so the benchmark does not flatter a design that
 * relies on ids being in time order. One prepared INSERT, committed every 50,000 rows.
 */
import type Database from "better-sqlite3";

const DAY = 86_400_000;

/** A small deterministic PRNG (mulberry32): the same data on every run and machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Pick<T> = [T, number][];
function picker<T>(weights: Pick<T>): (r: number) => T {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  return (r) => {
    let x = r * total;
    for (const [v, w] of weights) {
      x -= w;
      if (x < 0) return v;
    }
    return weights.at(-1)![0];
  };
}

const tool = picker<string>([
  ["get_order_status", 55],
  ["get_return_policy", 15],
  ["create_return_request", 28],
  ["delete_all_files", 1],
  ["run_shell", 1],
]);
const readStatus = picker<string>([
  ["success", 90],
  ["business_error", 7],
  ["rejected", 1.5],
  ["timeout", 1],
  ["technical_error", 0.5],
]);
const writeStatus = picker<string>([
  ["confirmation_required", 45],
  ["success", 25],
  ["cancelled", 12],
  ["expired", 8],
  ["superseded", 5],
  ["business_error", 3],
  ["stale", 2],
]);

export type BenchShape = {
  events: number;
  users: string[];
  chats: number;
  now: number;
  spanDays: number;
};

export function insertAuditEvents(client: Database.Database, shape: BenchShape): void {
  const random = rng(42);
  const insert = client.prepare(
    `INSERT INTO audit_events (at, user_id, chat_id, action_id, tool_call_id, tool, access, status,
       error_code, duration_ms, arguments, result, prompt_version, model)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'support-v1', 'returns-desk-offline-1')`,
  );
  const start = shape.now - shape.spanDays * DAY;
  const step = (shape.spanDays * DAY) / shape.events;
  const batch = client.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const name = tool(random());
      const write = name === "create_return_request";
      const known = name.startsWith("get_") || write;
      const status = known ? (write ? writeStatus(random()) : readStatus(random())) : "rejected";
      const late = status === "expired" || random() < 0.01 ? 20 * 60_000 : 0;
      const at = Math.floor(start + i * step) - late;
      const user = shape.users[Math.floor(random() * shape.users.length)]!;
      const chat = `chat-${Math.floor(random() * shape.chats)}`;
      const order = String(1000 + Math.floor(random() * 9000));
      insert.run(
        at,
        user,
        chat,
        write ? `action-${Math.floor(i / 3)}` : null,
        `call-${i}`,
        name,
        known ? (write ? "write" : "read") : null,
        status,
        status === "business_error"
          ? "order_not_found"
          : status === "rejected"
            ? "unknown_tool"
            : null,
        Math.floor(random() * 40),
        write
          ? `{"orderId":"${order}","reason":"damaged","comment":null}`
          : `{"orderId":"${order}"}`,
        status === "success" ? `{"ok":true}` : null,
      );
    }
  });
  for (let i = 0; i < shape.events; i += 50_000) batch(i, Math.min(shape.events, i + 50_000));
}
