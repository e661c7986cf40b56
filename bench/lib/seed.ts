/**
 * A fresh store for load and crash runs: the demo data plus the large generated store
 * (customers customer{N}@bench.example.com, password returns-demo), written before the server
 * starts so start-up finds a ready database.
 */
import type Database from "better-sqlite3";
import { openDatabase } from "@/db";
import { seedDemo, seedLarge } from "@/db/seed";

export async function seedStore(
  file: string,
  { customers, orders }: { customers: number; orders: number },
): Promise<void> {
  const db = openDatabase(file);
  try {
    await seedDemo(db);
    await seedLarge(db, { customers, ordersCount: orders });
  } finally {
    db.$client.close();
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
