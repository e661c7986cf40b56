/**
 * A fresh store for load and crash runs: the demo data plus the large generated store
 * (customers customer{N}@bench.example.com, password returns-demo), written before the server
 * starts so start-up finds a ready database.
 */
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
