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

// Memory: package.json runs this file as `node --max-old-space-size=256 --max-semi-space-size=4`
// (README "Memory" says why). Node reads NODE_OPTIONS before its command line, so the same
// flag in NODE_OPTIONS loses to those: say so rather than drop an operator's setting silently.
for (const flag of ["--max-old-space-size", "--max-semi-space-size"]) {
  const given = (process.env.NODE_OPTIONS ?? "").split(/\s+/).find((o) => o.startsWith(`${flag}=`));
  const used = process.execArgv.findLast((a) => a.startsWith(`${flag}=`));
  if (given && used && given !== used)
    console.warn(
      `NODE_OPTIONS ${given} is overridden by ${used} on node's command line (package.json's start script). ` +
        `To change it, run node yourself: node ${given} scripts/start.mjs`,
    );
}

await import("./serve.mjs");
