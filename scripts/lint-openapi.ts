/**
 * npm run lint:openapi (part of npm run lint): writes the OpenAPI document that lib/api/openapi.ts
 * generates from the zod schemas to a temporary file and lints it with Redocly's recommended rules
 * (redocly.yaml), offline: no telemetry, no update check, nothing fetched. Exits with Redocly's
 * status, so an error (an operation without `security`, no `servers`, ...) fails the lint.
 * Run with `tsx --conditions=react-server` (lib/api imports "server-only").
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/api/openapi";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-openapi-"));
const file = path.join(dir, "openapi.json");
try {
  fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
  const r = spawnSync(
    process.execPath,
    [cli, "lint", file, "--config", path.resolve("redocly.yaml"), "--format", "stylish"],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      },
    },
  );
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
