import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, type Db, getDb } from "@/db";
import { initDatabase } from "@/db/init";
import { resetEnv } from "@/lib/env";

/**
 * Points this test process at a fresh SQLite file (real file, real migrations, demo seed)
 * and returns it. Call from beforeAll/beforeEach.
 */
export async function useTestDatabase(
  opts: { seed?: boolean; env?: Record<string, string> } = {},
): Promise<{ db: Db; file: string; dir: string }> {
  closeDb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-test-"));
  const file = path.join(dir, "test.db");
  process.env.DATABASE_PATH = file;
  process.env.SEED_DEMO = opts.seed === false ? "0" : "1";
  for (const [k, v] of Object.entries(opts.env ?? {})) process.env[k] = v;
  resetEnv();
  await initDatabase();
  return { db: getDb(), file, dir };
}
