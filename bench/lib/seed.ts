/**
 * A fresh store for load and crash runs: the demo data plus the large generated store
 * (customers customer{N}@bench.example.com, password returns-demo), written before the server
 * starts so start-up finds a ready database.
 */
import type Database from "better-sqlite3";
import { closeDb } from "@/db";
import { initDatabase } from "@/db/init";
import { seedDemo, seedLarge } from "@/db/seed";
import { resetEnv } from "@/lib/env";

export async function seedStore(
  file: string,
  { customers, orders }: { customers: number; orders: number },
): Promise<void> {
  process.env.DATABASE_PATH = file;
  process.env.SEED_DEMO = "0";
  resetEnv();
  try {
    await initDatabase();
    await seedDemo();
    await seedLarge({ customers, ordersCount: orders });
  } finally {
    await closeDb();
  }
}

/** Customers of the large seed, each with one four-digit order that is returnable today. */
export function returnableOrders(
  db: Database.Database,
  limit: number,
): { email: string; orderId: string }[] {
  const since = Date.now() - 25 * 86_400_000;
  return db
    .prepare(
      `SELECT u.email email, min(o.id) orderId FROM orders o JOIN user u ON u.id = o.user_id
       WHERE o.status = 'delivered' AND length(o.id) = 4 AND o.delivered_at >= ?
         AND u.email LIKE 'customer%@bench.example.com'
         AND NOT EXISTS (SELECT 1 FROM return_requests r WHERE r.order_id = o.id)
       GROUP BY u.id ORDER BY u.email LIMIT ?`,
    )
    .all(since, limit) as { email: string; orderId: string }[];
}
