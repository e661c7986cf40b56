// Starts the production server on PORT (default 3000). A bad variable stops it here, with its
// name. The server then runs in this same process (scripts/serve.mjs): no wrapper process stays
// between the shell and the server, so signals and exit codes reach it directly.
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

await import("./serve.mjs");
