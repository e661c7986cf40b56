/**
 * The paced model of `npm run bench:paced`: the tests' loopback OpenAI Chat Completions server
 * (tests/helpers/openai-server.ts) answering like a hosted model. A question that names an order
 * gets a get_order_status call after `--first-token-ms`; the call's result gets `--words` words at
 * `--words-per-second`, the first after `--first-token-ms`. Its own process, so its timers do not
 * wait behind the benchmark's client.
 *
 *   node --import tsx bench/paced/model.ts --first-token-ms=300 --words=60 --words-per-second=50
 *   (prints {"baseURL"} when listening)
 */
import { startOpenAIServer } from "../../tests/helpers/openai-server";

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = hit ? Number(hit.split("=")[1]) : fallback;
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0`);
  return n;
};
const firstTokenMs = arg("first-token-ms", 300);
const words = arg("words", 60);
const perSecond = arg("words-per-second", 50);

const WORDS =
  "your order left our warehouse and is with the carrier now it should reach you soon".split(" ");
const answer = (orderId: string) =>
  `Order ${orderId}: ${Array.from({ length: Math.max(1, words - 2) }, (_, i) => WORDS[i % WORDS.length]).join(" ")}`;

const contentOf = (m: { content?: unknown }) =>
  typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");

const server = await startOpenAIServer((request) => {
  const messages = request.body.messages;
  const last = messages.at(-1);
  const asked = [...messages].reverse().find((m) => m.role === "user");
  const orderId = /\b(\d{4})\b/.exec(asked ? contentOf(asked) : "")?.[1] ?? "0000";
  if (last?.role === "tool")
    return {
      type: "text",
      text: answer(orderId),
      firstTokenMs,
      delayMs: perSecond > 0 ? 1000 / perSecond : 0,
      usage: { prompt_tokens: 400, completion_tokens: words },
    };
  return {
    type: "tool-calls",
    calls: [{ name: "get_order_status", arguments: { orderId } }],
    firstTokenMs,
    usage: { prompt_tokens: 350, completion_tokens: 12 },
  };
});
console.log(JSON.stringify({ baseURL: server.baseURL }));
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
