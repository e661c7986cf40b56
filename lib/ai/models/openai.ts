/**
 * The hosted model: OpenAI Chat Completions through @ai-sdk/openai. `.chat()` on purpose: the
 * default `openai(id)` speaks the Responses API, which Ollama, vLLM and LM Studio do not.
 */

import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";

export type OpenAIConfig = {
  apiKey: string;
  /** Any OpenAI-compatible server ("http://127.0.0.1:11434/v1" for Ollama); default OpenAI's. */
  baseURL?: string | undefined;
  modelId: string;
};

export function createOpenAIChatModel({ apiKey, baseURL, modelId }: OpenAIConfig): LanguageModelV3 {
  return createOpenAI({ apiKey, baseURL, name: "openai" }).chat(modelId);
}
