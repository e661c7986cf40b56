// Starts the production server on PORT (default 3000). Configuration is validated by
// next.config.mjs at start, so a bad variable fails here with its name.
import { spawn } from "node:child_process";

const port = process.env.PORT || "3000";
const child = spawn("npx", ["next", "start", "-p", port], { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
