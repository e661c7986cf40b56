/**
 * vitest's globalSetup, once per run in the main process: opens the run's template databases
 * (harness/db-template.ts) before any worker starts, builds the demo-seeded one of each dialect
 * the run can use (tests/helpers/build-templates.ts, one process per dialect, side by side), and
 * drops them when the run ends. Templates of other seeds are still built on first use.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { openTemplateRun } from "../../harness/db-template";

const ROOT = path.resolve(import.meta.dirname, "../..");

function build(dialect: "sqlite" | "postgres"): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (dialect === "postgres") {
    // The dialect is fixed when db/schema is first imported (tests/helpers/setup.ts does the same).
    env.TEST_DIALECT = "postgres";
    env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
  } else {
    delete env.TEST_DIALECT;
    delete env.DATABASE_URL;
  }
  const script = path.join(ROOT, "tests", "helpers", "build-templates.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", script],
      { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`building the ${dialect} template database failed (${code}):\n${err}`)),
    );
  });
}

export default async function setup() {
  const teardown = await openTemplateRun();
  // Another project's globalSetup opened the run and built them already.
  if (!teardown) return undefined;
  try {
    await Promise.all([
      build("sqlite"),
      ...(process.env.TEST_DATABASE_URL?.trim() ? [build("postgres")] : []),
    ]);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
