// Starts the production server on PORT (default 3000): scripts/serve.mjs, which passes the
// socket's address to the app. Configuration is validated by next.config.ts at start, so a bad
// variable fails here with its name.
import { spawn } from "node:child_process";

const port = process.env.PORT || "3000";
const child = spawn(
  process.execPath,
  [new URL("./serve.mjs", import.meta.url).pathname, "-p", port],
  { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
