import { env } from "../../env";

export const OFFLINE_MODEL_ID = "returns-desk-offline-1";

/** Which model answers, for /api/health and the audit. */
export function modelInfo(): { provider: "offline" | "openai"; id: string } {
  const e = env();
  return e.MODEL_PROVIDER === "openai"
    ? { provider: "openai", id: e.OPENAI_MODEL }
    : { provider: "offline", id: OFFLINE_MODEL_ID };
}
