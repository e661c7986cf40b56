// `npm run db:seed`            demo store (only into an empty database)
// `npm run db:seed -- --large`  plus a large generated store for benchmarks
//                               (--customers=N --orders=N, defaults 5000 / 20000)
import { closeDb } from "../db";
import { initDatabase } from "../db/init";
import { seedDemo, seedLarge } from "../db/seed";
import { env } from "../lib/env";

const args = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split("=")[1]) : fallback;
};

process.env.SEED_DEMO = "0";
await initDatabase();
const seeded = await seedDemo();
console.log(seeded ? "Demo store seeded." : "Database not empty: demo seed skipped.");
if (args.includes("--large")) {
  const started = performance.now();
  const r = await seedLarge({
    customers: num("customers", 5000),
    ordersCount: num("orders", 20000),
  });
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Large store: ${r.customers} customers, ${r.orders} orders in ${s} s -> ${env().DATABASE_URL ? "PostgreSQL" : env().DATABASE_PATH}`,
  );
}
await closeDb();
