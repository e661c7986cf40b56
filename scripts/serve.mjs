// The production server: Next.js's request handler behind a plain Node HTTP server, so the
// client's socket address reaches the app. Next copies the socket address into X-Forwarded-For
// only when the client sent none, so a made-up header would otherwise be indistinguishable from
// the real address. Every request gets the socket address in a header of
// our own, overwriting whatever the client put there; lib/http/client-address.ts reads it, and
// believes forwarded headers only when TRUST_PROXY is set.
//   node scripts/serve.mjs [-p PORT] [-H HOST]     (npm start, the e2e and system tests)
import http from "node:http";

function arg(flag, fallback) {
  const i = process.argv.indexOf(flag);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const port = Number(arg("-p", process.env.PORT || "3000"));
const hostname = arg("-H", undefined);
// Shared with lib/http/client-address.ts (same process): its presence says the header is ours.
const PEER_HEADER = "x-returns-desk-peer";
globalThis[Symbol.for("returns-desk.peer-header")] = PEER_HEADER;

// As `next start` does; set before Next is loaded.
process.env.NODE_ENV = "production";
const { default: next } = await import("next");
const app = next({ dev: false, hostname: hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();

const server = http.createServer((req, res) => {
  // Assigned, never appended: a client-sent copy of the header is replaced.
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
  handle(req, res);
});
server.listen(port, hostname, () => {
  console.log(`Returns Desk ready on http://${hostname ?? "localhost"}:${port}`);
});
// A stop (SIGTERM from a supervisor, Ctrl-C) lets requests in flight finish: no new connections,
// idle keep-alive ones closed, and the process leaves once the last response is sent, or after
// SHUTDOWN_GRACE_MS (a streaming chat turn that will not end) with whatever is still open cut.
// A confirm is one transaction: cut or not, it has either committed or not happened.
const SHUTDOWN_GRACE_MS = 10_000;
let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    // Tracing (when on) sends its batched spans before the process leaves (lib/telemetry/sdk.ts).
    const flush = globalThis[Symbol.for("returns-desk.flush-tracing")];
    const leave = () =>
      Promise.resolve(typeof flush === "function" ? flush() : undefined)
        .catch(() => {})
        .finally(() => process.exit(0));
    server.close(leave);
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      leave();
    }, SHUTDOWN_GRACE_MS).unref();
  });
