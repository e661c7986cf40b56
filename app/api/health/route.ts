import { pingDatabase } from "@/db/queries/health";
import { modelInfo } from "@/lib/ai/models/info";
import type { HealthResponse } from "@/lib/api/schemas";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

export const GET = handler(async () => {
  let db: "ok" | "error" = "error";
  try {
    db = pingDatabase() ? "ok" : "error";
  } catch (err) {
    console.error("[returns-desk] health: database check failed", err);
  }
  const body: HealthResponse = { status: db === "ok" ? "ok" : "degraded", db, model: modelInfo() };
  return Response.json(body, {
    status: db === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
