/**
 * One turn of a profile run dry: the model answers the given history with tools that only read
 * and plan (buildDryRunTools: a write runs plan() and the policy, nothing else). No pending
 * action, no effect, no outbox row, no audit event, no stored model call. Shadow repeats a live
 * turn with it; `npm run eval -- --probes --shadow` runs each probe through it for the live and
 * the candidate profile, so the probes are tried exactly as shadow tries live load.
 */
import "server-only";
import { type ModelMessage, stepCountIs, streamText, type ToolSet, wrapLanguageModel } from "ai";
import { ModelCallMeter } from "@/lib/ai/model-calls";
import { MODEL_CALL_SETTINGS } from "@/lib/ai/models";
import { buildSystemPrompt } from "@/lib/ai/prompts";
import { errorFields, log } from "@/lib/log";
import { createOutputGuard } from "../output-guard";
import { turnDeadlineMs } from "../service";
import { buildDryRunTools, declaredInput } from "../turn-tools";
import { type Trajectory, traceSteps } from "./compare";
import type { ModelProfile } from "./profile";

export type DryTurn = {
  profile: ModelProfile;
  userId: string;
  chatId: string;
  summary: string | null;
  messages: ModelMessage[];
  maxSteps: number;
};

export type DryTurnResult = {
  trajectory: Trajectory;
  /** Why the profile produced no trajectory: its provider failed, or it ran past the deadline. */
  error: "timeout" | "model_error" | null;
};

/** Runs the turn dry; never throws (a failure is the result's `error`). */
export async function runDryTurn(turn: DryTurn): Promise<DryTurnResult> {
  const { profile } = turn;
  let planned = false;
  let handedOff = false;
  const tools: ToolSet = buildDryRunTools(
    { userId: turn.userId, chatId: turn.chatId },
    {
      onPlanned: () => {
        planned = true;
      },
      onHandoff: () => {
        handedOff = true;
      },
    },
  );
  // The live turn's bounds on the model's output, without its audit: nothing of a dry run is
  // an event of the customer's chat.
  const guard = createOutputGuard({ onRejected: async () => {}, onDropped: async () => {} });
  const meter = new ModelCallMeter();
  let trace: ReturnType<typeof traceSteps> = { calls: [], refusals: 0, answerChars: 0 };
  let tokens: number | null = null;
  let error: DryTurnResult["error"] = null;
  const deadline = AbortSignal.timeout(turnDeadlineMs());
  let failure: unknown = null;
  try {
    // Streamed like the live turn, so the output guard bounds it the same way.
    const result = streamText({
      model: wrapLanguageModel({ model: profile.model, middleware: guard.middleware }),
      system: buildSystemPrompt({ summary: turn.summary, version: profile.promptVersion }),
      messages: turn.messages,
      tools,
      abortSignal: deadline,
      stopWhen: [stepCountIs(turn.maxSteps), () => planned, () => handedOff, () => guard.overrun],
      prepareStep: () => (guard.callsLeft === 0 ? { toolChoice: "none" } : undefined),
      ...MODEL_CALL_SETTINGS,
      experimental_repairToolCall: async () => null,
      onChunk: meter.onChunk,
      onError: ({ error: err }) => {
        failure ??= err;
      },
    });
    await result.consumeStream({
      onError: (err) => {
        failure ??= err;
      },
    });
    if (failure !== null) throw failure;
    trace = traceSteps(await result.steps, declaredInput);
    const usage = await result.totalUsage;
    tokens =
      usage.inputTokens === undefined && usage.outputTokens === undefined
        ? null
        : (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  } catch (err) {
    error = deadline.aborted ? "timeout" : "model_error";
    log().warn(
      { err: errorFields(err), chatId: turn.chatId, fingerprint: profile.fingerprint },
      "a dry-run turn failed",
    );
  }
  return {
    trajectory: {
      ...trace,
      proposedWrite: planned,
      latencyMs: meter.measure().latencyMs,
      tokens,
      fingerprint: profile.fingerprint,
    },
    error,
  };
}
