/**
 * The bare AI SDK route of `npm run bench:paced`: the smallest server that answers the same
 * question with the same model and tool, `streamText` piped to a plain Node response, with no
 * Next, session, database, audit or safety layer. The benchmark compares the product's turn with
 * this one, in the same run.
 *
 *   node --import tsx bench/paced/bare-server.ts   (OPENAI_BASE_URL; prints {"url"} when listening)
 *
 * POST /chat {"text": "..."} -> the UI message stream.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { stepCountIs, streamText } from "ai";
import { benchOrderTools } from "../../lib/bench/order-tool";

const model = createOpenAI({
  apiKey: process.env.OPENAI_API_KEY || "bench",
  baseURL: process.env.OPENAI_BASE_URL,
}).chat(process.env.OPENAI_MODEL || "bench-model");

const server = http.createServer(async (req, res) => {
  if (req.method !== "POST" || req.url !== "/chat") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let text: string;
  try {
    text = String(JSON.parse(Buffer.concat(chunks).toString("utf8")).text);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const result = streamText({
    model,
    messages: [{ role: "user", content: text }],
    tools: benchOrderTools,
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
  result.pipeUIMessageStreamToResponse(res);
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
