/**
 * A warehouse at the wire: a loopback HTTP server that receives Standard Webhooks and verifies
 * each one's signature with the `standardwebhooks` package, as a real receiver would. It answers
 * what the test asks for (a status per delivery, in order; 200 once the list is used up).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Delivery = {
  id: string;
  timestamp: string;
  /** The body, parsed; null when the signature did not verify. */
  verified: unknown;
  body: string;
  status: number;
};

export type WebhookReceiver = {
  url: string;
  secret: string;
  deliveries: Delivery[];
  /** The statuses of the next deliveries, in order (then 200). */
  answer(...statuses: number[]): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secret = `whsec_${Buffer.from("returns-desk-test-warehouse-key!").toString("base64")}`;
  const verifier = new Webhook(secret);
  const deliveries: Delivery[] = [];
  let queue: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      let verified: unknown = null;
      try {
        verified = verifier.verify(body, headers);
      } catch {
        verified = null;
      }
      const status = verified === null ? 401 : (queue.shift() ?? 200);
      deliveries.push({
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        verified,
        body,
        status,
      });
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/warehouse`,
    secret,
    deliveries,
    answer: (...statuses) => {
      queue = statuses;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
