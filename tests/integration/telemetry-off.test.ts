/**
 * Without OTEL_EXPORTER_OTLP_ENDPOINT the server starts with no tracer provider: the
 * instrumentation hook never loads the SDK, nothing records, and a turn works as before.
 */
import { trace } from "@opentelemetry/api";
import { beforeAll, expect, it } from "vitest";
import { register } from "@/instrumentation";
import { tracingEnabled } from "@/lib/telemetry/tracer";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";

beforeAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await useTestDatabase();
  process.env.NEXT_RUNTIME = "nodejs";
  await register();
});

it("starts without an exporter: no span records, and a turn answers", async () => {
  expect(tracingEnabled()).toBe(false);
  const span = trace.getTracer("probe").startSpan("probe");
  expect(span.isRecording()).toBe(false);
  span.end();
  const anna = await Customer.signIn("anna@example.com");
  const turn = await anna.say(await anna.newChat(), "Where is order 8041?");
  expect(turn.text).toContain("8041");
});
