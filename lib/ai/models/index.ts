/**
 * The model that answers, chosen by configuration (MODEL_PROVIDER, see lib/env.ts). The turn calls
 * getChatModel() per request; the instance is cached per configuration so tests that change the
 * environment (and call resetEnv()) get a new one.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { env } from "../../env";
import { modelInfo, OFFLINE_MODEL_ID } from "./info";
import { OfflineLanguageModel } from "./offline";
import { createOpenAIChatModel } from "./openai";

export type ModelInfo = ReturnType<typeof modelInfo>;
export type ChatModel = { model: LanguageModelV3; info: ModelInfo };

/**
 * What the turn should pass to streamText with this model. No retries: a failed turn is shown to
 * the customer at once and leaves the history unchanged, so they can simply send again; the SDK's
 * default (2 retries, ~6 s of backoff) would only make a 500 or 429 feel like a hang. The chunk
 * timeout ends a provider that stops sending mid-answer.
 */
export const MODEL_CALL_SETTINGS = {
  maxRetries: 0,
  timeout: { chunkMs: 30_000 },
} as const;

let cached: { key: string; value: ChatModel } | undefined;

export function getChatModel(): ChatModel {
  const e = env();
  const info = modelInfo();
  const key = JSON.stringify([
    info.provider,
    info.id,
    e.OPENAI_BASE_URL ?? "",
    e.OPENAI_API_KEY ?? "",
  ]);
  if (cached?.key === key) return cached.value;
  const model =
    info.provider === "openai"
      ? createOpenAIChatModel({
          // env() guarantees a key whenever the provider is openai.
          apiKey: e.OPENAI_API_KEY ?? "",
          baseURL: e.OPENAI_BASE_URL,
          modelId: e.OPENAI_MODEL,
        })
      : new OfflineLanguageModel();
  cached = { key, value: { model, info } };
  return cached.value;
}

let cachedCandidate: { key: string; value: ChatModel } | undefined;

/**
 * The candidate profile's model (CANDIDATE_*, each defaulting to the live value), for shadow
 * runs: never the one that answers the customer.
 */
export function getCandidateChatModel(): ChatModel {
  const e = env();
  const info =
    e.CANDIDATE_MODEL_PROVIDER === "openai"
      ? { provider: "openai" as const, id: e.CANDIDATE_OPENAI_MODEL }
      : { provider: "offline" as const, id: OFFLINE_MODEL_ID };
  const key = JSON.stringify([
    info.provider,
    info.id,
    e.CANDIDATE_OPENAI_BASE_URL ?? "",
    e.CANDIDATE_OPENAI_API_KEY ?? "",
  ]);
  if (cachedCandidate?.key === key) return cachedCandidate.value;
  const model =
    info.provider === "openai"
      ? createOpenAIChatModel({
          // env() refuses a candidate on openai without a key.
          apiKey: e.CANDIDATE_OPENAI_API_KEY ?? "",
          baseURL: e.CANDIDATE_OPENAI_BASE_URL,
          modelId: info.id,
        })
      : new OfflineLanguageModel();
  cachedCandidate = { key, value: { model, info } };
  return cachedCandidate.value;
}
