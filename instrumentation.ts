/**
 * Runs once when the server starts: tracing first (only when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * otherwise the OpenTelemetry SDK is never even loaded), then migrate and (demo) seed before the
 * first request, and resolve anything a crash left half-done.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
    const { startTracing } = await import("./lib/telemetry/sdk");
    startTracing();
  }
  const { startServer } = await import("./lib/startup");
  await startServer();
}
