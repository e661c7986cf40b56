/**
 * A fresh store for load and crash runs: the demo data plus the large generated store
 * (customers customer{N}@bench.example.com, password returns-demo), written before the server
 * starts so start-up finds a ready database. `target` is a SQLite file path or a postgres:// URL.
 *
 * The app's data layer is imported only here, after the target is in the environment: the
 * dialect is fixed when db/schema is first loaded.
 */
import type Database from "better-sqlite3";
import pg from "pg";

const isUrl = (target: string) => /^postgres(ql)?:\/\//.test(target);

export async function seedStore(
  target: string,
  { customers, orders }: { customers: number; orders: number },
): Promise<void> {
  if (isUrl(target)) {
    process.env.DATABASE_URL = target;
    // Required with DATABASE_URL; this process only writes rows and never signs a session.
    process.env.BETTER_AUTH_SECRET ||= "seeding-only-seeding-only-seeding-only-00";
  } else process.env.DATABASE_PATH = target;
  process.env.SEED_DEMO = "0";
  const { resetEnv } = await import("@/lib/env");
  resetEnv();
  const { closeDb } = await import("@/db");
  const { initDatabase } = await import("@/db/init");
  const { seedDemo, seedLarge } = await import("@/db/seed");
  try {
    await initDatabase();
    await seedDemo();
    await seedLarge({ customers, ordersCount: orders });
  } finally {
    await closeDb();
  }
}

type Pick = { email: string; orderId: string };

/** The query behind returnableOrders; `$since` and `$limit` are bound per dialect. */
const RETURNABLE = (user: string, since: string, limit: string) =>
  `SELECT u.email AS email, min(o.id) AS "orderId" FROM orders o JOIN ${user} u ON u.id = o.user_id
   WHERE o.status = 'delivered' AND length(o.id) = 4 AND o.delivered_at >= ${since}
     AND u.email LIKE 'customer%@bench.example.com'
     AND NOT EXISTS (SELECT 1 FROM return_requests r WHERE r.order_id = o.id)
   GROUP BY u.id, u.email ORDER BY u.email LIMIT ${limit}`;

const since = () => Date.now() - 25 * 86_400_000;

/** Customers of the large seed, each with one four-digit order that is returnable today. */
export function returnableOrders(db: Database.Database, limit: number): Pick[] {
  return db.prepare(RETURNABLE("user", "?", "?")).all(since(), limit) as Pick[];
}

/** The same picks from a PostgreSQL store. */
export async function returnableOrdersPg(url: string, limit: number): Promise<Pick[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(RETURNABLE(`"user"`, "$1", "$2"), [since(), limit])).rows as Pick[];
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE next to `serverUrl`'s; returns its URL and a drop function. */
export async function createPgDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
