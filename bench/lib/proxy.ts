/**
 * A tiny round-robin HTTP proxy for `npm run bench -- --instances=N`: each request goes to the
 * next instance in turn, as a load balancer without session affinity would send it, so one
 * customer's sign-in, turn and confirm land on different instances and only the database is
 * shared. It runs inside the bench process; its cost is part of every step and of the floors
 * alike, so the ratios stay comparable.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function roundRobin(
  targets: string[],
): Promise<{ url: string; close: () => Promise<void> }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const server = http.createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]!);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        agent.destroy();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
