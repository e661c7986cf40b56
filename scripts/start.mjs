// Starts the production server on PORT (default 3000). A bad variable stops it here, with its name.
import { spawn } from "node:child_process";
import { createJiti } from "jiti";

// `next start` reuses the configuration serialized at build time and does not run
// next.config.mjs again, so the environment is checked here, by lib/env.ts's own schema.
const { parseEnv } = await createJiti(import.meta.url).import("../lib/env.ts");
try {
  parseEnv(process.env);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

const port = process.env.PORT || "3000";
const child = spawn("npx", ["next", "start", "-p", port], { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
