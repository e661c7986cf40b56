/**
 * Tracing for our own code, on the OpenTelemetry API only (no SDK here). Spans are recorded
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set: then instrumentation.ts has started the SDK
 * (lib/telemetry/sdk.ts). Unset, every helper here is a plain call: no SDK loaded, no span
 * objects, no context switches. Attributes carry ids, statuses, counts and durations, never
 * customer text, tool arguments or results (delivery notes live in results).
 */
import { type Attributes, context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

export function tracingEnabled(): boolean {
  return Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

const tracer = () => trace.getTracer("returns-desk");

/**
 * The AI SDK's telemetry settings: its spans (each model call, each tool call) with token counts,
 * finish reasons and ids, but never the prompt, the messages, tool arguments or outputs.
 */
export function aiTelemetry(functionId: string) {
  return {
    isEnabled: tracingEnabled(),
    recordInputs: false,
    recordOutputs: false,
    functionId,
  } as const;
}

/** A span that outlives the call that starts it (a streamed turn): end it with `finish`. */
export type OpenSpan = {
  /** Runs `fn` with this span as the active parent (for spans the AI SDK starts inside). */
  run<T>(fn: () => T): T;
  finish(attributes?: Attributes, failed?: boolean): void;
};

const NO_SPAN: OpenSpan = { run: (fn) => fn(), finish: () => {} };

export function openSpan(name: string, attributes: Attributes): OpenSpan {
  if (!tracingEnabled()) return NO_SPAN;
  const span = tracer().startSpan(name, { attributes });
  const ctx = trace.setSpan(context.active(), span);
  let ended = false;
  return {
    run: (fn) => context.with(ctx, fn),
    finish(more, failed) {
      if (ended) return;
      ended = true;
      if (more) span.setAttributes(more);
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** Runs synchronous `fn` inside a span; a throw marks it failed (by error name only). */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span | null) => T): T {
  if (!tracingEnabled()) return fn(null);
  return tracer().startActiveSpan(name, { attributes }, (span) => {
    try {
      return fn(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The error's class and our contract code (never its message, which may quote input). */
function markFailed(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", err instanceof Error ? err.name : "unknown");
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") span.setAttribute("returns_desk.error.code", code.slice(0, 100));
}

/** Adds attributes to the active span (the AI SDK's tool-call span, inside a tool's execute). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!tracingEnabled()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Runs async `fn` inside an active span (children started in it, even later, find it). */
export async function inSpanAsync<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return fn(null);
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

const ID_SEGMENT = /^(?:[0-9a-f-]{16,}|\d+|outcome-.+)$/i;

/** "POST /api/chats/[id]/messages": the route, not the ids, so span names stay few. */
export function routeName(req: Request): string {
  const path = new URL(req.url).pathname
    .split("/")
    .map((s) => (ID_SEGMENT.test(s) ? "[id]" : s))
    .join("/");
  return `${req.method} ${path}`;
}
