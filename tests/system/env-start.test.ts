/**
 * A wrong configuration stops `npm start` with a message that names the variable, before the
 * server serves anything: next.config.mjs validates the environment through lib/env.ts's schema
 * when Next loads its configuration. Started the way `npm start` starts it (scripts/start.mjs ->
 * `next start`), on the default production build.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, freePort } from "@/bench/lib/server";

/** The production build `npm start` and the e2e suite use: starting it costs no extra build. */
const DIST_DIR = ".next";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Outcome = { started: boolean; code: number | null; output: string };

/**
 * Runs scripts/start.mjs with `env` until it exits, or until the server says it is ready (then it
 * is stopped and reported as started: validation let a bad value through).
 */
async function start(env: Record<string, string>): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-env-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(await freePort()),
      DATABASE_PATH: path.join(dir, "app.db"),
      MODEL_PROVIDER: "offline",
      OPENAI_API_KEY: "",
      ...env,
    },
  });
  let output = "";
  return new Promise((resolve) => {
    let started = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && /Returns Desk ready on/.test(output)) {
        started = true;
        process.kill(-child.pid!, "SIGTERM");
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => resolve({ started, code, output }));
  });
}

describe("configuration is checked at start", () => {
  beforeAll(() => ensureBuild(DIST_DIR), 600_000);

  it("a value of the wrong type stops the start and names the variable", async () => {
    const r = await start({ PENDING_ACTION_TTL_SECONDS: "fifteen minutes" });
    expect(r.started, r.output).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("Invalid configuration");
    expect(r.output).toMatch(/PENDING_ACTION_TTL_SECONDS: /);
  });

  it("a provider without its key stops the start and names the missing variable", async () => {
    const r = await start({ MODEL_PROVIDER: "openai", OPENAI_API_KEY: "" });
    expect(r.started, r.output).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/OPENAI_API_KEY: is required when MODEL_PROVIDER=openai/);
  });

  it("DATABASE_URL without BETTER_AUTH_SECRET stops the start and names the secret", async () => {
    // Never reaches the database: the configuration is refused first.
    const r = await start({
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      BETTER_AUTH_SECRET: "",
    });
    expect(r.started, r.output).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/BETTER_AUTH_SECRET: is required when DATABASE_URL is set/);
  });

  it("a valid configuration starts (the test above is not vacuous)", async () => {
    const r = await start({ PENDING_ACTION_TTL_SECONDS: "60" });
    expect(r.started, r.output).toBe(true);
  });
});
