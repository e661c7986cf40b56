/**
 * The server's one logger (pino): JSON lines on stdout with a level, an ISO time and, inside a
 * request, that request's id on every line (AsyncLocalStorage, see withRequestContext).
 *
 * What never goes into a log: customer text, prompts, delivery notes, emails, keys. AI SDK
 * errors carry the whole request in `requestBodyValues` (messages, order items, payment label,
 * delivery note), so errors are logged through errorFields(): name, code and status only. The
 * redaction paths are a second line of defence for objects someone logs by mistake.
 *
 * LOG_LEVEL (trace|debug|info|warn|error|fatal|silent, default info) sets the threshold.
 */
import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "./env";

type RequestContext = { requestId: string };
// One store per process, not per module instance. Next bundles this module into each route's
// chunk (eight copies in the production build), and every AsyncLocalStorage that has been used
// makes Node 20 copy its store onto every promise the process creates from then on: a store per
// route was a per-promise cost paid per route ever served, in every web stream chunk of a turn
// (docs/benchmarks.md, "A chat turn at a hosted model's pace").
const gr = globalThis as unknown as { __returnsDeskRequests?: AsyncLocalStorage<RequestContext> };
gr.__returnsDeskRequests ??= new AsyncLocalStorage<RequestContext>();
const requests = gr.__returnsDeskRequests;

/** Field names whose values are customer data or secrets wherever they appear (two levels deep). */
const SENSITIVE = [
  "email",
  "password",
  "text",
  "prompt",
  "messages",
  "deliveryNote",
  "requestBodyValues",
  "responseBody",
  "apiKey",
  "authorization",
  "cookie",
  "secret",
  "token",
];
export const REDACT_PATHS = [
  ...SENSITIVE,
  ...SENSITIVE.map((k) => `*.${k}`),
  ...SENSITIVE.map((k) => `*.*.${k}`),
];

function build(destination?: DestinationStream): Logger {
  return pino(
    {
      level: env().LOG_LEVEL,
      base: { service: "returns-desk" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // Every line written while a request is being served carries its id.
      mixin: () => {
        const ctx = requests.getStore();
        return ctx ? { requestId: ctx.requestId } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

const g = globalThis as unknown as { __returnsDeskLog?: Logger };

/** The logger. Import this and log with `log().info({...fields}, "message")`. */
export function log(): Logger {
  g.__returnsDeskLog ??= build();
  return g.__returnsDeskLog;
}

/** Tests capture the JSON lines by sending them to their own stream. */
export function setLogDestination(destination: DestinationStream | undefined): void {
  g.__returnsDeskLog = build(destination);
}

/** The id of the request being served, if any (also sent back as the X-Request-Id header). */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}

/** Runs `fn` as one request: every line logged inside it, and after it in its streams, has its id. */
export function withRequestContext<T>(fn: () => T, requestId: string = randomUUID()): T {
  return requests.run({ requestId }, fn);
}

/**
 * What may be logged of an error: its name, code and HTTP status. Never the message or the
 * object itself: an AI SDK error's message can quote the provider's answer, and its
 * requestBodyValues hold the whole prompt.
 */
export function errorFields(err: unknown): { name: string; code?: string; status?: number } {
  if (typeof err !== "object" || err === null)
    return { name: typeof err === "string" ? "string" : typeof err };
  const e = err as {
    name?: unknown;
    code?: unknown;
    statusCode?: unknown;
    status?: unknown;
    cause?: { code?: unknown } | null;
  };
  const name = typeof e.name === "string" ? e.name : (err.constructor?.name ?? "Object");
  const codeOf = (v: unknown) =>
    typeof v === "string" || typeof v === "number" ? String(v) : undefined;
  // drizzle wraps the driver's error and keeps it as `cause`; its SQLSTATE ("57P01") or SQLite
  // code ("SQLITE_BUSY") is what tells an operator what happened, and it quotes no data.
  const code = codeOf(e.code) ?? (typeof e.cause === "object" ? codeOf(e.cause?.code) : undefined);
  const rawStatus = typeof e.statusCode === "number" ? e.statusCode : e.status;
  const status = typeof rawStatus === "number" ? rawStatus : undefined;
  return { name, ...(code ? { code } : {}), ...(status ? { status } : {}) };
}
