/**
 * A loopback OpenAI-compatible server for tests: POST {baseURL}/chat/completions, answered from a
 * script per request, speaking the Chat Completions protocol the way @ai-sdk/openai reads it
 * (SSE chunks with choices[].delta, tool_calls split across chunks, finish_reason, a usage chunk,
 * `data: [DONE]`; or one JSON body when stream is false). It records every request so tests can
 * assert what the model was sent. It plays a misbehaving provider too: 500, 429, a stream cut
 * mid-way, a hang.
 *
 *   const server = await startOpenAIServer([{ type: "tool-calls", calls: [{ name: "get_order_status",
 *     arguments: { orderId: "8041" } }] }, { type: "text", text: "On its way." }]);
 *   // MODEL_PROVIDER=openai OPENAI_API_KEY=test OPENAI_BASE_URL=server.baseURL, or:
 *   const model = createOpenAIChatModel({ apiKey: "test", baseURL: server.baseURL, modelId: "m" });
 *   ... streamText({ model, maxRetries: 0, ... }) ...
 *   server.requests[1].body.messages  // includes the role "tool" message with the result
 *   await server.close();
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { z } from "zod";

export type ScriptedCall = {
  id?: string;
  name: string;
  /** An object is JSON-encoded; a string is sent as is (send broken JSON on purpose this way). */
  arguments: string | Record<string, unknown>;
};
export type Usage = { prompt_tokens: number; completion_tokens: number };

/**
 * Pacing, like a hosted model: `firstTokenMs` waits after the headers before the first chunk (its
 * time to first token); `gate` holds the answer until the test resolves it (a turn kept open for
 * as long as a test needs, with no clock involved).
 */
export type Pace = { firstTokenMs?: number; gate?: Promise<unknown> };

export type Script =
  /** `delayMs` spaces the text deltas out, like a slow model (disconnect tests, the paced bench). */
  | ({ type: "text"; text: string; usage?: Usage; finishReason?: string; delayMs?: number } & Pace)
  /** Several calls = parallel tool calls in one response. `text` streams before them. */
  | ({ type: "tool-calls"; calls: ScriptedCall[]; text?: string; usage?: Usage } & Pace)
  | { type: "error"; status: number; message?: string; headers?: Record<string, string> }
  /**
   * Streams `text` (default "Let me check") and any complete `calls`, then drops the connection
   * without finish or [DONE].
   */
  | { type: "cut"; text?: string; calls?: ScriptedCall[] }
  /** Sends the headers (and `text`, if any) and then nothing: the client must give up. */
  | { type: "hang"; text?: string };

const REQUEST = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown().optional() })),
  tools: z.array(z.unknown()).optional(),
  tool_choice: z.unknown().optional(),
  stream: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof REQUEST>;
export type RecordedRequest = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ChatRequest;
};
export type Responder = (request: RecordedRequest, index: number) => Script;

export type OpenAIServer = {
  /** Pass as OPENAI_BASE_URL / createOpenAI({ baseURL }). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Adds scripts for the next requests (when started with a queue). */
  enqueue: (...scripts: Script[]) => void;
  close: () => Promise<void>;
};

const DEFAULT_USAGE: Usage = { prompt_tokens: 20, completion_tokens: 7 };

/** Splits text or JSON into 2-3 pieces, like a real provider's deltas, so parsers must reassemble. */
function pieces(s: string): string[] {
  if (s.length < 4) return [s];
  const a = Math.ceil(s.length / 3);
  return [s.slice(0, a), s.slice(a, 2 * a), s.slice(2 * a)].filter(Boolean);
}

function streamScript(res: http.ServerResponse, model: string, script: Script, n: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const gate = "gate" in script ? script.gate : undefined;
  const firstTokenMs = "firstTokenMs" in script ? (script.firstTokenMs ?? 0) : 0;
  if (!gate && firstTokenMs <= 0) {
    streamBody(res, model, script, n);
    return;
  }
  void (async () => {
    await gate;
    if (firstTokenMs > 0) await new Promise((r) => setTimeout(r, firstTokenMs));
    // The client may have gone while the answer was held.
    if (!res.destroyed) streamBody(res, model, script, n);
  })();
}

function streamBody(res: http.ServerResponse, model: string, script: Script, n: number): void {
  const base = {
    id: `chatcmpl-${n}`,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
  };
  const send = (delta: unknown, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  const finish = (reason: string, usage: Usage = DEFAULT_USAGE) => {
    send({}, reason);
    const total = usage.prompt_tokens + usage.completion_tokens;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { ...usage, total_tokens: total } })}\n\n`,
    );
    res.end("data: [DONE]\n\n");
  };
  send({ role: "assistant", content: "" });
  const text = "text" in script ? script.text : undefined;
  const slow = script.type === "text" && !!script.delayMs;
  if (!slow) for (const p of pieces(text ?? "")) if (p) send({ content: p });

  if (script.type === "text" && script.delayMs) {
    const rest = script.text.split(/(?<= )/);
    const tick = () => {
      if (res.destroyed) return;
      const word = rest.shift();
      if (word === undefined) {
        finish(script.finishReason ?? "stop", script.usage);
        return;
      }
      send({ content: word });
      setTimeout(tick, script.delayMs);
    };
    tick();
    return;
  }
  if (script.type === "text") {
    finish(script.finishReason ?? "stop", script.usage);
    return;
  }
  const sendCalls = (calls: ScriptedCall[]) =>
    calls.forEach((call, index) => {
      const args =
        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      const id = call.id ?? `call_${n}_${index}`;
      send({
        tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }],
      });
      for (const p of pieces(args)) send({ tool_calls: [{ index, function: { arguments: p } }] });
    });
  if (script.type === "tool-calls") {
    sendCalls(script.calls);
    finish("tool_calls", script.usage);
    return;
  }
  if (script.type === "cut") {
    if (!text && !script.calls) send({ content: "Let me check" });
    if (script.calls) sendCalls(script.calls);
    // Once what was sent is flushed (and read: a moment later), drop the connection: no
    // finish_reason, no [DONE].
    res.write("", () => setTimeout(() => res.socket?.destroy(), 50));
  }
  // "hang": leave the response open; close() ends it.
}

function jsonScript(res: http.ServerResponse, model: string, script: Script, n: number): void {
  if (script.type === "cut" || script.type === "hang") {
    res.writeHead(200, { "content-type": "application/json" });
    if (script.type === "cut") res.socket?.destroy();
    return;
  }
  if (script.type === "error") return; // answered before streaming starts
  const calls =
    script.type === "tool-calls"
      ? script.calls.map((c, i) => ({
          id: c.id ?? `call_${n}_${i}`,
          type: "function",
          function: {
            name: c.name,
            arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
          },
        }))
      : undefined;
  const usage = script.usage ?? DEFAULT_USAGE;
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: script.text ?? null,
            ...(calls ? { tool_calls: calls } : {}),
          },
          finish_reason: calls
            ? "tool_calls"
            : (script.type === "text" && script.finishReason) || "stop",
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    }),
  );
}

export async function startOpenAIServer(
  responder: Script[] | Responder = [],
): Promise<OpenAIServer> {
  const queue = Array.isArray(responder) ? [...responder] : [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? "";
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      json = undefined;
    }
    const parsed = REQUEST.safeParse(json);
    if (req.method !== "POST" || !path.endsWith("/chat/completions") || !parsed.success) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: `openai-server: unexpected ${req.method} ${path}` } }),
      );
      return;
    }
    const recorded: RecordedRequest = { path, headers: req.headers, body: parsed.data };
    const n = requests.push(recorded) - 1;
    const script: Script | undefined = Array.isArray(responder)
      ? queue.shift()
      : responder(recorded, n);
    if (!script || script.type === "error") {
      const status = script?.status ?? 500;
      res.writeHead(status, { "content-type": "application/json", ...(script?.headers ?? {}) });
      const message = script
        ? (script.message ?? `scripted ${status}`)
        : `openai-server: no script for request ${n}`;
      res.end(JSON.stringify({ error: { message, type: "server_error", code: null } }));
      return;
    }
    if (parsed.data.stream) streamScript(res, parsed.data.model, script, n);
    else jsonScript(res, parsed.data.model, script, n);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...scripts) => {
      queue.push(...scripts);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The role "tool" messages of a recorded request: what the model was sent as tool results. */
export function toolMessages(request: RecordedRequest) {
  return request.body.messages.filter((m) => m.role === "tool");
}
