import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../env";

/**
 * BETTER_AUTH_SECRET, or a secret generated once into the data folder (next to the database)
 * so `npm start` needs no configuration and sessions survive restarts.
 */
export function authSecret(): string {
  const configured = env().BETTER_AUTH_SECRET;
  if (configured) return configured;
  const dir = path.dirname(path.resolve(env().DATABASE_PATH));
  const file = path.join(dir, ".auth-secret");
  fs.mkdirSync(dir, { recursive: true });
  try {
    // "wx": only the first process to get here writes; the others read what it wrote.
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return fs.readFileSync(file, "utf8").trim();
}
