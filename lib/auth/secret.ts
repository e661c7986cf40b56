import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../env";

/** As long as BETTER_AUTH_SECRET must be (lib/env.ts). */
const MIN_LENGTH = 32;

/**
 * BETTER_AUTH_SECRET, or a secret generated once into the data folder (next to the database)
 * so `npm start` needs no configuration and sessions survive restarts. Never a built-in
 * fallback: an empty or short file (a crash during an older version's first start) stops the
 * server with a message that says what to do.
 */
export function authSecret(): string {
  const configured = env().BETTER_AUTH_SECRET;
  if (configured) return configured;
  const dir = path.dirname(path.resolve(env().DATABASE_PATH));
  const file = path.join(dir, ".auth-secret");
  // Owner-only like the database beside it (db/index.ts).
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) createOnce(file);
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < MIN_LENGTH) {
    throw new Error(
      `The session secret file ${file} is ${secret ? "too short" : "empty"} ` +
        "(probably a crash during the first start). Delete it and start again to generate a new " +
        "one (everyone will have to sign in again), or set BETTER_AUTH_SECRET (32+ characters).",
    );
  }
  return secret;
}

/**
 * Writes the secret to a temporary file and links it into place: the link appears with its
 * content, or not at all, so a crash can no longer leave an empty secret behind. If another
 * process got there first (EEXIST), its secret is the one everybody reads.
 */
function createOnce(file: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, randomBytes(32).toString("base64url"), { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the temporary file was written just above and always exists here, so force never matters.
    fs.rmSync(tmp, { force: true });
  }
}
