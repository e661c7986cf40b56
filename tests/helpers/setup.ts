import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Quiet, deterministic defaults for every test process. Each test file then opens its own
// database with useTestDatabase().
process.env.NEXT_TELEMETRY_DISABLED = "1";
delete process.env.OPENAI_API_KEY;
delete process.env.MODEL_PROVIDER;
// Many sign-ins from one process share one rate-limit bucket; the limit has its own test.
process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE ??= "100000";
// Customer mail without SMTP_URL is written as .eml files: into a folder of this process, never
// into the repository's data/mail.
delete process.env.SMTP_URL;
process.env.MAIL_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-mail-"));
// The integration canary sends a new provider configuration's first effects one at a time with a
// lookup after each: the suites that count a provider's requests for other reasons would all see
// it. It has its own suite (tests/integration/effects-canary.test.ts), which turns it on.
process.env.EFFECTS_CANARY_COUNT ??= "0";

// The "postgres" vitest project (vitest.config.ts) runs chosen suites on PostgreSQL. The dialect
// is fixed when db/schema is first imported, so DATABASE_URL must point at PostgreSQL before any
// test module loads; useTestDatabase() then creates a fresh database on that server per call, and
// every database a test file created is dropped when the file is done.
if (process.env.TEST_DIALECT === "postgres") {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("the postgres test project needs TEST_DATABASE_URL");
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
  const { dropTestDatabases } = await import("./db");
  afterAll(dropTestDatabases);
}
