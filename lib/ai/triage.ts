/**
 * Conversation triage for staff: a structured summary of one chat, stored on chats.triage.
 * With a real model (MODEL_PROVIDER=openai) it is the AI SDK's structured output
 * (generateText + Output.object) against a zod schema; with the offline provider it is computed
 * by rules from the transcript, so the feature works, deterministically, without a network.
 */
import "server-only";
import { generateText, Output } from "ai";
import { saveChatTriage } from "@/db/queries/audit-transcript";
import {
  normalizeTriage,
  STORED_TRIAGE,
  type StoredTriage,
  TRIAGE_OUTPUT,
  type Triage,
} from "@/lib/api/triage";
import { loadTranscript, type Transcript } from "@/lib/audit/transcript";
import { recordAudit } from "@/lib/audit-log/record";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { aiTelemetry } from "@/lib/telemetry/tracer";
import { measuredCall } from "./model-calls";
import { getChatModel } from "./models";
import { modelInfo } from "./models/info";
import { TRIAGE_PROMPT_VERSION, TRIAGE_SYSTEM, transcriptText } from "./triage-prompt";
import { triageByRules } from "./triage-rules";

const MODEL_TIMEOUT_MS = 30_000;

/** The audit's `tool` for a triage run (not a model tool: no model can call it). */
export const TRIAGE_AUDIT_TOOL = "triage_chat";

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
          experimental_telemetry: aiTelemetry("triage"),
          // Staff press the button again if it fails; retries would only make it feel hung.
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
        }),
    );
    return normalizeTriage(output);
  } catch (err) {
    // Name, code and status only: the model's raw answer and the request may quote customer data.
    log().error({ err: errorFields(err) }, "triage model call failed");
    throw new AppError("model_unavailable", "The model could not triage this chat. Try again.");
  }
}

/**
 * Triages the chat now and stores the result; null if there is no such chat. Every run is an
 * audit event (tool `triage_chat`, by the staff member, on the chat, with the model, prompt
 * version, status and duration): a staff member's model call over a customer's transcript
 * leaves a trace, and so does a failed one.
 */
export async function triageChat({
  chatId,
  staffId,
  now = new Date(),
}: {
  chatId: string;
  staffId: string;
  now?: Date;
}): Promise<StoredTriage | null> {
  const transcript = await loadTranscript({ chatId });
  if (!transcript) return null;
  const info = modelInfo();
  const byModel = info.provider === "openai";
  const startedAt = performance.now();
  const audit = async (
    status: "success" | "technical_error",
    result: unknown,
    errorCode?: string,
  ) =>
    await recordAudit({
      at: now,
      tool: TRIAGE_AUDIT_TOOL,
      access: "read",
      status,
      errorCode: errorCode ?? null,
      userId: staffId,
      chatId,
      durationMs: performance.now() - startedAt,
      arguments: { chatId },
      result,
      promptVersion: TRIAGE_PROMPT_VERSION,
      model: info.id,
    });
  let triage: Triage;
  try {
    triage = byModel
      ? await triageByModel(transcript, chatId)
      : triageByRules(transcript.messages, transcript.actions);
  } catch (err) {
    const code = err instanceof AppError ? err.code : "internal_error";
    await audit("technical_error", { code }, code);
    throw err;
  }
  const stored = STORED_TRIAGE.parse({
    triage,
    generatedAt: now.toISOString(),
    ranBy: staffId,
    method: byModel ? "model" : "rules",
    model: info,
    promptVersion: TRIAGE_PROMPT_VERSION,
    throughSeq: transcript.messages.at(-1)?.seq ?? 0,
  });
  await saveChatTriage({ chatId, triage: stored });
  // What was produced, not the transcript: the triage itself is on the chat.
  await audit("success", {
    method: stored.method,
    throughSeq: stored.throughSeq,
    ...stored.triage,
  });
  return stored;
}
