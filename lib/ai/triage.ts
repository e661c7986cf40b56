/**
 * Conversation triage for staff: a structured summary of one chat, stored on chats.triage.
 * With a real model (MODEL_PROVIDER=openai) it is the AI SDK's structured output
 * (generateText + Output.object) against a zod schema; with the offline provider it is computed
 * by rules from the transcript, so the feature works, deterministically, without a network.
 */
import "server-only";
import { generateText, Output } from "ai";
import { saveChatTriage } from "@/db/queries/audit-transcript";
import { loadTranscript, type Transcript } from "@/lib/audit/transcript";
import { AppError } from "@/lib/errors";
import { measuredCall } from "./model-calls";
import { getChatModel } from "./models";
import { modelInfo } from "./models/info";
import { TRIAGE_PROMPT_VERSION, TRIAGE_SYSTEM, transcriptText } from "./triage-prompt";
import { triageByRules } from "./triage-rules";
import {
  normalizeTriage,
  STORED_TRIAGE,
  type StoredTriage,
  TRIAGE_OUTPUT,
  type Triage,
} from "./triage-schema";

const MODEL_TIMEOUT_MS = 30_000;

async function triageByModel(t: Transcript, chatId: string): Promise<Triage> {
  const info = modelInfo();
  try {
    const { output } = await measuredCall(
      {
        kind: "triage",
        provider: info.provider,
        model: info.id,
        promptVersion: TRIAGE_PROMPT_VERSION,
        chatId,
      },
      () =>
        generateText({
          model: getChatModel().model,
          system: TRIAGE_SYSTEM,
          prompt: transcriptText(t),
          output: Output.object({ schema: TRIAGE_OUTPUT, name: "triage" }),
          temperature: 0,
          // Staff press the button again if it fails; retries would only make it feel hung.
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
        }),
    );
    return normalizeTriage(output);
  } catch (err) {
    // The name and message say enough (e.g. NoObjectGeneratedError: response did not match
    // schema); the model's raw answer can be long and may quote customer data.
    const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    console.error(`[returns-desk] triage model call failed: ${why}`);
    throw new AppError("model_unavailable", "The model could not triage this chat. Try again.");
  }
}

/** Triages the chat now and stores the result; null if there is no such chat. */
export async function triageChat({
  chatId,
  now = new Date(),
}: {
  chatId: string;
  now?: Date;
}): Promise<StoredTriage | null> {
  const transcript = loadTranscript({ chatId });
  if (!transcript) return null;
  const info = modelInfo();
  const byModel = info.provider === "openai";
  const triage = byModel
    ? await triageByModel(transcript, chatId)
    : triageByRules(transcript.messages, transcript.actions);
  const stored = STORED_TRIAGE.parse({
    triage,
    generatedAt: now.toISOString(),
    method: byModel ? "model" : "rules",
    model: info,
    promptVersion: TRIAGE_PROMPT_VERSION,
    throughSeq: transcript.messages.at(-1)?.seq ?? 0,
  });
  saveChatTriage({ chatId, triage: stored });
  return stored;
}
