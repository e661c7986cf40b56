/**
 * Measuring model calls: time to first token, latency, tokens, steps and tool names, stored one
 * row per call (model_calls) with the day's counters for the staff metrics page, in the writer's
 * transaction. Ids and numbers only: the customer's text stays in the messages table.
 */
import { errorFields, log } from "@/lib/log";
import "server-only";
import type { LanguageModelUsage, StepResult, ToolSet } from "ai";
import { bumpDaily, type DailyBump, dayOf, insertModelCall } from "@/db/queries/metrics";
import { writeTransaction } from "@/db/queries/tx";
import type { ModelCallKind } from "@/db/schema";

/** Why a call produced no answer the app kept. */
export type ModelCallError = "model_error" | "aborted" | "save_failed";

export type ModelCallRecord = {
  kind: ModelCallKind;
  startedAt: Date;
  userId?: string | null;
  chatId?: string | null;
  messageId?: string | null;
  provider: string;
  model: string;
  promptVersion: string;
  responseId?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  ttftMs?: number | null;
  latencyMs: number;
  finishReason?: string | null;
  steps: number;
  toolCalls: string[];
  /** The bytes of the turn's tool arguments and results (JSON): a drift signal. */
  payloadBytes?: number | null;
  error?: ModelCallError | null;
  /** The turn's profile (provider, model, prompt, tool schemas hashed); none for summaries. */
  fingerprint?: string | null;
  /** A turn that opened the chat (its first): counted as a chat started that day. */
  firstOfChat?: boolean;
  /** A turn's tool calls refused by policy, and the write it proposed (drift signals). */
  refusals?: number;
  actionId?: string | null;
  /** Served by the candidate as a canary; `fallback` when it failed and live answered. */
  canary?: boolean;
  fallback?: "model_error" | "timeout" | null;
};

/** Starts the clock at construction; pass `onChunk` to streamText. */
export class ModelCallMeter {
  readonly startedAt = new Date();
  private readonly t0 = performance.now();
  private first: number | null = null;

  /** Any streamed part (text, reasoning, tool input) is the model's first sign of life. */
  readonly onChunk = (): void => {
    this.first ??= performance.now();
  };

  measure(): { ttftMs: number | null; latencyMs: number } {
    return {
      ttftMs: this.first === null ? null : Math.round(this.first - this.t0),
      latencyMs: Math.round(performance.now() - this.t0),
    };
  }
}

/** The size of what the tools exchanged with the model: every call's input and result as JSON. */
export function toolPayloadBytes(steps: readonly StepResult<ToolSet>[]): number {
  let n = 0;
  for (const s of steps) {
    for (const c of s.toolCalls) n += Buffer.byteLength(JSON.stringify(c.input ?? null) ?? "");
    for (const r of s.toolResults) n += Buffer.byteLength(JSON.stringify(r.output ?? null) ?? "");
  }
  return n;
}

/** What the SDK's steps say about a finished call. */
export function describeSteps(
  steps: readonly StepResult<ToolSet>[],
  usage: LanguageModelUsage | undefined,
): Pick<
  ModelCallRecord,
  | "responseId"
  | "finishReason"
  | "steps"
  | "toolCalls"
  | "inputTokens"
  | "outputTokens"
  | "payloadBytes"
> {
  const last = steps.at(-1);
  return {
    responseId: last?.response.id ?? null,
    finishReason: last?.finishReason ?? null,
    steps: steps.length,
    toolCalls: steps.flatMap((s) => s.toolCalls.map((c) => c.toolName)),
    payloadBytes: toolPayloadBytes(steps),
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
  };
}

/**
 * Latency histograms: bucket i holds (1.25^(i-1), 1.25^i] ms, so a percentile read back from
 * the counters is within 12% of the exact value (reported at the bucket's geometric middle).
 */
export const BUCKET_GROWTH = 1.25;
export function latencyBucket(ms: number): number {
  if (ms <= 1) return 0;
  return Math.min(99, Math.ceil(Math.log(ms) / Math.log(BUCKET_GROWTH)));
}
export const bucketKey = (ms: number) => String(latencyBucket(ms)).padStart(2, "0");

/** The daily counters one turn adds to. Summary and triage calls are stored but not counted. */
function turnBumps(r: ModelCallRecord): DailyBump[] {
  if (r.kind !== "turn") return [];
  const day = dayOf(r.startedAt);
  const bumps: DailyBump[] = [
    { day, name: "turn", n: 1 },
    { day, name: "turn.model", key: `${r.provider}/${r.model} ${r.promptVersion}`, n: 1 },
    { day, name: "turn.latency", key: bucketKey(r.latencyMs), n: 1 },
  ];
  if (r.firstOfChat) bumps.push({ day, name: "turn.chat_start", n: 1 });
  if (r.error) bumps.push({ day, name: "turn.error", key: r.error, n: 1 });
  if (r.toolCalls.length > 0) bumps.push({ day, name: "turn.tools", n: 1 });
  for (const tool of r.toolCalls)
    bumps.push({ day, name: "turn.tool", key: tool.slice(0, 200), n: 1 });
  if (r.ttftMs !== null && r.ttftMs !== undefined)
    bumps.push({ day, name: "turn.ttft", key: bucketKey(r.ttftMs), n: 1 });
  bumps.push({ day, name: "turn.input_tokens", n: r.inputTokens ?? 0 });
  bumps.push({ day, name: "turn.output_tokens", n: r.outputTokens ?? 0 });
  return bumps;
}

/** Stores the call and its counters in one transaction (a savepoint inside the caller's). */
export async function recordModelCall(r: ModelCallRecord): Promise<void> {
  await writeTransaction(async () => {
    await insertModelCall({
      at: r.startedAt,
      kind: r.kind,
      userId: r.userId ?? null,
      chatId: r.chatId ?? null,
      messageId: r.messageId ?? null,
      provider: r.provider,
      model: r.model,
      responseId: r.responseId ?? null,
      promptVersion: r.promptVersion,
      inputTokens: r.inputTokens ?? null,
      outputTokens: r.outputTokens ?? null,
      ttftMs: r.ttftMs ?? null,
      latencyMs: r.latencyMs,
      finishReason: r.finishReason ?? null,
      steps: r.steps,
      toolCalls: r.toolCalls,
      payloadBytes: r.payloadBytes ?? null,
      error: r.error ?? null,
      fingerprint: r.fingerprint ?? null,
      refusals: r.refusals ?? 0,
      actionId: r.actionId ?? null,
      canary: r.canary ?? false,
      fallback: r.fallback ?? null,
    });
    await bumpDaily(turnBumps(r));
  });
}

type Finished = { steps: StepResult<ToolSet>[]; totalUsage: LanguageModelUsage };

/**
 * Runs a non-streaming call (generateText: summaries, triage) and stores its row, or its
 * failure, before handing back the result or the error. No first token to time: ttft is null.
 */
export async function measuredCall<R extends Finished>(
  base: Pick<
    ModelCallRecord,
    "kind" | "provider" | "model" | "promptVersion" | "chatId" | "userId"
  >,
  run: () => Promise<R>,
): Promise<R> {
  const meter = new ModelCallMeter();
  const record = async (rest: Partial<ModelCallRecord>) => {
    try {
      await recordModelCall({
        ...base,
        startedAt: meter.startedAt,
        steps: 0,
        toolCalls: [],
        ...meter.measure(),
        ttftMs: null,
        ...rest,
      });
    } catch (err) {
      // Measuring must never turn a good answer (or a clear error) into a different failure.
      log().error({ err: errorFields(err) }, "could not record a model call");
    }
  };
  try {
    const result = await run();
    await record(describeSteps(result.steps, result.totalUsage));
    return result;
  } catch (err) {
    await record({ error: "model_error" });
    throw err;
  }
}
