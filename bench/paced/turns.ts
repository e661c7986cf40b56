/**
 * One phase of `npm run bench:paced`: every customer asks "Where is my order NNNN?" in a loop
 * until the time is up, on one route, timing at the client the first text token and the end of
 * each turn. node:http rather than fetch: the client shares the two cores with the servers and
 * the model, and undici's web streams cost more per chunk than the servers under test would.
 */
import http from "node:http";
import type { HttpCustomer } from "../lib/client";
import { parseUiStream } from "../lib/client";
import { percentile } from "../lib/stats";

export type RouteName = "bare" | "next" | "app";

export type Turn = { ttft: number; end: number };
export type Pct = { p50: number; p99: number };

export type PhaseResult = {
  turns: Turn[];
  errors: string[];
  /** 503 overloaded answers: refused at the door, retried after Retry-After. */
  refused: number;
  wallSeconds: number;
  ttft: Pct;
  end: Pct;
  serverCpuMs?: number;
  modelCpuMs?: number;
  /** The benchmark's own process (the client), over the phase. */
  clientCpuMs?: number;
  /** The machine's 1-minute load average at the end of the phase (2 cores: above 2 is a queue). */
  load?: number;
  idleRssBytes?: number;
  peakRssBytes?: number;
  loop?: { p50: number; p99: number; max: number; stores?: number } | null;
  /** The model process's event-loop delay over the phase. */
  modelLoop?: { p50: number; p99: number; max: number } | null;
};

/** A chat holds a few turns before the customer starts a new one: history stays short. */
const TURNS_PER_CHAT = 8;

type Answer = {
  status: number;
  retryAfter: string | undefined;
  ttft: number;
  end: number;
  body: string;
};

function post(
  agent: http.Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        // When the client sent it (its wall clock, the server's too on one machine): a server-side
        // probe can tell time spent before the request reached the server from time inside it.
        headers: {
          "content-type": "application/json",
          "x-bench-sent": String(Date.now()),
          ...headers,
        },
      },
      (res) => {
        let ttft = Number.NaN;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
          if (Number.isNaN(ttft) && text.includes('"type":"text-delta"'))
            ttft = performance.now() - start;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"],
            ttft,
            end: performance.now() - start,
            body: text,
          }),
        );
        res.on("error", reject);
      },
    );
    // A turn that has not ended after a minute is an error, not a number.
    req.setTimeout(60_000, () => req.destroy(new Error("no answer within 60 s")));
    req.on("error", reject);
    req.end(body);
  });
}

/** What a working turn looks like on every route: the tool's answer, then text, then finish. */
function check(a: Answer, orderId: string): string | null {
  if (a.status !== 200) return `${a.status} ${a.body.slice(0, 160)}`;
  const chunks = parseUiStream(a.body);
  const error = chunks.find((c) => c.type === "error");
  if (error) return `stream error: ${String(error.errorText).slice(0, 160)}`;
  const tool = chunks.find((c) => c.type === "tool-output-available");
  if (!tool || !JSON.stringify(tool).includes(orderId)) return "no tool output for the order";
  if (!chunks.some((c) => c.type === "text-delta")) return "no text";
  if (!chunks.some((c) => c.type === "finish")) return "no finish";
  return null;
}

export async function runPhase({
  route,
  customers,
  seconds,
  agent,
  base,
}: {
  route: RouteName;
  customers: { c: HttpCustomer; orderId: string }[];
  seconds: number;
  agent: http.Agent;
  base: string;
}): Promise<PhaseResult> {
  const turns: Turn[] = [];
  const errors: string[] = [];
  let refused = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  // Arrivals spread over the first two seconds, as customers' would, not one thundering herd.
  const spread = Math.min(2000, seconds * 500);

  await Promise.all(
    customers.map(async ({ c, orderId }, i) => {
      await new Promise((r) => setTimeout(r, (spread * i) / customers.length));
      let chatId: string | null = null;
      let inChat = 0;
      while (performance.now() < deadline) {
        const text = `Where is my order ${orderId}?`;
        let url: string;
        let headers: Record<string, string> = {};
        if (route === "app") {
          if (!chatId || inChat >= TURNS_PER_CHAT) {
            try {
              chatId = await c.newChat();
            } catch (err) {
              errors.push(`new chat: ${err instanceof Error ? err.message : String(err)}`);
              await new Promise((r) => setTimeout(r, 200));
              continue;
            }
            inChat = 0;
          }
          inChat++;
          url = `${base}/api/chats/${chatId}/messages`;
          headers = { cookie: c.cookie, origin: base };
        } else url = route === "next" ? `${base}/api/bench/model` : `${base}/chat`;
        let a: Answer;
        try {
          a = await post(agent, url, JSON.stringify({ text }), headers);
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
          continue;
        }
        if (a.status === 503 && a.body.includes('"overloaded"')) {
          refused++;
          const wait = Math.max(1, Number(a.retryAfter) || 1) * 1000;
          await new Promise((r) => setTimeout(r, Math.min(wait, deadline - performance.now())));
          continue;
        }
        const why = check(a, orderId);
        if (why) errors.push(why);
        else turns.push({ ttft: a.ttft, end: a.end });
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const pct = (xs: number[]): Pct => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99) };
  };
  return {
    turns,
    errors,
    refused,
    wallSeconds,
    ttft: pct(turns.map((t) => t.ttft)),
    end: pct(turns.map((t) => t.end)),
  };
}
