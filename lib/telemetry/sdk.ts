/**
 * The OpenTelemetry SDK, loaded by instrumentation.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set: a Node tracer provider (AsyncLocalStorage context, so spans started in a turn's stream
 * find their parent) with a batching OTLP/HTTP exporter. The exporter reads the standard
 * variables itself (OTEL_EXPORTER_OTLP_ENDPOINT, ..._HEADERS, OTEL_BSP_SCHEDULE_DELAY, ...).
 * Next.js finds the registered provider and adds its own spans (the route) to the same traces.
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

let provider: NodeTracerProvider | undefined;

export function startTracing(): void {
  if (provider) return;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME?.trim() || "returns-desk",
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  // scripts/serve.mjs runs outside Next's bundle and cannot import this module: it finds the
  // flush here when it stops, so the spans still batched at SIGTERM are sent, not dropped.
  (globalThis as Record<symbol, unknown>)[Symbol.for("returns-desk.flush-tracing")] = flushTracing;
}

/** Sends what is buffered (tests; a graceful shutdown). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}
