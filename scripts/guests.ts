/**
 * npm run guests -- prune [--idle-days N]
 *
 * Deletes guest accounts (visitors without an account) idle for longer than GUEST_IDLE_DAYS
 * (default 30), or N days, with their sessions, chats and pending actions; what they wrote at the
 * store and the audit trail stay (lib/guests/prune.ts). The server does the same every hour.
 * Prints `{"deleted": n}`. Uses the configured database (DATABASE_PATH or DATABASE_URL).
 */
import { parseArgs } from "node:util";
import { closeDb } from "@/db";
import { initDatabase } from "@/db/init";
import { pruneGuests } from "@/lib/guests/prune";

const USAGE = "Usage: npm run guests -- prune [--idle-days <days, 1 or more>]";

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  options: { "idle-days": { type: "string" } },
  allowPositionals: true,
  strict: false,
});

if (positionals[0] !== "prune" || positionals.length !== 1) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const raw = values["idle-days"];
const idleDays = typeof raw === "string" ? Number(raw) : undefined;
if (idleDays !== undefined && !(Number.isInteger(idleDays) && idleDays >= 1)) {
  process.stderr.write(`--idle-days must be a whole number of days, 1 or more.\n${USAGE}\n`);
  process.exit(2);
}

process.env.SEED_DEMO = "0";
await initDatabase();
const result = await pruneGuests(idleDays === undefined ? {} : { idleDays });
process.stdout.write(`${JSON.stringify(result)}\n`);
await closeDb();
