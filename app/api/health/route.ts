import { pingDatabase } from "@/db/queries/health";
import { modelInfo } from "@/lib/ai/models/info";
import type { HealthResponse } from "@/lib/api/schemas";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { errorFields, log } from "@/lib/log";

export const dynamic = "force-dynamic";

export const GET = handler(async () => {
  let db: "ok" | "error" = "error";
  try {
    db = (await pingDatabase()) ? "ok" : "error";
  } catch (err) {
    log().error({ err: errorFields(err) }, "health: database check failed");
  }
  const body: HealthResponse = { status: db === "ok" ? "ok" : "degraded", db, model: modelInfo() };
  return Response.json(body, {
    status: db === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
