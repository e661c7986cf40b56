/**
 * One chat turn, in one place. `takeTurn` is its one entry: the route authenticates the customer,
 * parses the body and calls it; it checks the chat and the rate limit and owns the chat's turn
 * lease from taking it to releasing it. Then: history from the database (never from the
 * request), the AI SDK tool loop with the registry's tools, and the UI message stream back to the
 * browser. A proposed write stops the loop; the app writes the confirmation sentence and a
 * `data-pending-action` part. The turn is persisted only when it completes: a failed turn leaves
 * the history untouched.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  createUIMessageStream,
  InvalidToolInputError,
  type LanguageModelUsage,
  NoSuchToolError,
  stepCountIs,
  streamText,
  type UIMessageStreamWriter,
  wrapLanguageModel,
} from "ai";
import type { ChatRow } from "@/db/queries/chats";
import { withdrawProposal } from "@/lib/actions";
import type { PendingActionDto } from "@/lib/actions/dto";
import {
  describeSteps,
  ModelCallMeter,
  type ModelCallRecord,
  recordModelCall,
} from "@/lib/ai/model-calls";
import { MODEL_CALL_SETTINGS } from "@/lib/ai/models";
import { buildSystemPrompt } from "@/lib/ai/prompts";
import { normalizeMessageText } from "@/lib/api/message";
import type { ChatUIMessage } from "@/lib/api/parts";
import { recordAudit } from "@/lib/audit-log/record";
import { handoffNoteMessage, handoffText, requestHandoff } from "@/lib/chat/handoff";
import { answerInHandoff } from "@/lib/chat/handoff/customer";
import { env } from "@/lib/env";
import { withoutCodes } from "@/lib/guests/redact";
import { rateLimit } from "@/lib/http/rate-limit";
import { drainedUIMessageStreamResponse } from "@/lib/http/ui-stream";
import { errorFields, log } from "@/lib/log";
import type { StoreOrder } from "@/lib/store";
import { openGuestOrders } from "@/lib/store";
import { aiTelemetry, openSpan } from "@/lib/telemetry/tracer";
import { conversationLanguage } from "@/lib/text/language";
import { modelErrorText, overrunText } from "./app-text";
import {
  type CanaryFailure,
  canaryModel,
  candidateStepTimeoutMs,
  chooseServing,
} from "./candidate/canary";
import { traceSteps } from "./candidate/compare";
import { liveProfile } from "./candidate/profile";
import { scheduleShadowTurn } from "./candidate/shadow";
import { foldLongChat } from "./fold";
import { toModelMessages } from "./history";
import { createOutputGuard } from "./output-guard";
import { loadTurnHistory, saveTurn, userTexts } from "./persist";
import { actionDescription, presentAction } from "./present";
import { recordTurnProfile } from "./probes/record";
import {
  beginTurn,
  endTurn as endLease,
  requireChat,
  type TurnLease,
  turnDeadlineMs,
} from "./service";
import {
  auditDroppedCalls,
  auditRejectedCall,
  auditUnroutableCall,
  buildAiTools,
  declaredInput,
} from "./turn-tools";

/** The loop's bound: reads feed back into the model at most this many times. */
export const MAX_STEPS = 5;

/**
 * The chat turn for a signed-in customer's new message (`text` as the body gave it). Loads the chat
 * only if it is theirs (404 otherwise), normalises the text, applies the per-user message rate
 * limit and takes the turn lease (409 while another turn or a proposal holds the chat): every
 * refusal comes before anything is stored or any model is called. `slot` is the instance's
 * admission slot the route waited for; from here the turn owns it and the lease, and releases
 * both when its stream is done, or at once when it fails to start.
 */
export async function takeTurn({
  userId,
  chatId,
  text,
  slot,
  visitor = false,
}: {
  userId: string;
  chatId: string;
  text: string;
  slot: { release(): void };
  /** A store page's visitor who is not signed in there: the return policy only. */
  visitor?: boolean;
}): Promise<Response> {
  let lease: TurnLease;
  let chat: ChatRow;
  let clean: string;
  try {
    chat = await requireChat({ chatId, userId });
    clean = normalizeMessageText(text);
    // A guest's code typed into the chat instead of the form: kept out of the transcript and
    // the model alike (lib/guests/redact.ts).
    if (visitor) clean = withoutCodes(clean).text;
    await rateLimit(`chat:${userId}`, env().CHAT_RATE_LIMIT_PER_MINUTE);
    lease = await beginTurn({ chatId: chat.id, userId });
  } catch (err) {
    slot.release();
    throw err;
  }
  try {
    const finish = async () => {
      slot.release();
      return await endLease(lease);
    };
    // A chat a person has taken over: stored with a short note, the model is not called.
    const handedOff = await answerInHandoff({ chat, text: clean, endTurn: finish });
    if (handedOff) return handedOff;
    // A guest who verified an order by e-mail acts on it (and on nothing else: the store's
    // reads answer only that order); before that, the return policy alone.
    const verified = visitor ? await openGuestOrders(userId) : [];
    return await runChatTurn({
      userId,
      chat,
      visitor: visitor && verified.length === 0,
      guestOrders: visitor ? verified.map((v) => v.orderId) : null,
      text: clean,
      deadlineMs: turnDeadlineMs(),
      endTurn: finish,
    });
  } catch (err) {
    slot.release();
    await endLease(lease);
    throw err;
  }
}

async function runChatTurn({
  userId,
  chat,
  visitor,
  guestOrders = null,
  text,
  deadlineMs,
  endTurn,
}: {
  userId: string;
  chat: ChatRow;
  visitor: boolean;
  /** A guest who verified orders by e-mail: those orders (the turn offers no hand-off). */
  guestOrders?: string[] | null;
  text: string;
  /** The whole turn's budget: past it the turn stops and ends with the model-failure part. */
  deadlineMs?: number;
  /**
   * Ends the turn's lease; true if this turn still held it. Called when the turn is over, saved
   * or not: inside the transaction that saves the turn, so the check, the messages and the lease's
   * end are one commit; again only if that transaction rolled back (ending twice is harmless).
   */
  endTurn: () => Promise<boolean>;
}): Promise<Response> {
  const live = liveProfile();
  // Canary: the candidate may serve this chat (sticky); otherwise, and after a rollback, live.
  const serving = await chooseServing(chat.id);
  const profile = serving.profile;
  const { info } = profile;
  const marker = serving.canary ? "canary" : null;
  const ctx = {
    userId,
    chatId: chat.id,
    promptVersion: profile.promptVersion,
    model: info.id,
    profile: marker,
  };
  /** A canary step the candidate failed: the live profile answered the rest of the turn. */
  let fallback: CanaryFailure | null = null;
  const system = buildSystemPrompt({
    summary: chat.summary,
    visitor,
    guestOrders,
    version: profile.promptVersion,
  });
  const model = serving.canary
    ? canaryModel({
        candidate: profile.model,
        live: live.model,
        liveSystem: buildSystemPrompt({ summary: chat.summary, visitor, guestOrders }),
        stepTimeoutMs: candidateStepTimeoutMs(),
        onFallback: (why, err) => {
          fallback ??= why;
          log().warn({ err: errorFields(err), chatId: chat.id, why }, "canary fell back to live");
          void recordAudit({
            ...ctx,
            tool: "model:fallback",
            status: why === "timeout" ? "timeout" : "technical_error",
            errorCode: why,
            result: { fingerprint: profile.fingerprint, answeredBy: live.fingerprint },
          }).catch((auditErr) => {
            // The fallback itself must go on: the customer is waiting for the live answer.
            log().error({ err: errorFields(auditErr), chatId: chat.id }, "fallback audit failed");
          });
        },
      })
    : profile.model;
  const userMessage: ChatUIMessage = {
    id: randomUUID(),
    role: "user",
    parts: [{ type: "text", text }],
  };
  const history = await loadTurnHistory(chat);
  // The model answers in the customer's language; the app's own sentences and the card follow.
  const lang = conversationLanguage([...userTexts(history), text]);
  const modelMessages = await toModelMessages([...history, userMessage]);
  const assistantId = randomUUID();

  let proposal: PendingActionDto | null = null;
  /** The `request_human` call, once the model made one: the chat is handed off on save. */
  let handoffCall: string | null = null;
  let failed = false;
  let usage: LanguageModelUsage | undefined;
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let measured: ModelCallRecord | undefined;
  /** The live trajectory, for a shadow run of the candidate profile once the turn is saved. */
  let trace: ReturnType<typeof traceSteps> | undefined;
  /** Every order a tool of this turn read at the store, as the store answered. */
  const orderReads = new Map<string, StoreOrder | null>();
  const meter = new ModelCallMeter();
  const call = (): ModelCallRecord => ({
    kind: "turn",
    startedAt: meter.startedAt,
    userId,
    chatId: chat.id,
    provider: info.provider,
    model: info.id,
    promptVersion: profile.promptVersion,
    fingerprint: profile.fingerprint,
    canary: serving.canary,
    fallback,
    firstOfChat: history.length === 0 && chat.summarizedThrough === 0,
    steps: 0,
    toolCalls: [],
    ...meter.measure(),
  });

  // One span for the whole turn, open until the stream is done (a child of the route's span);
  // the AI SDK's spans (each model call, each tool call) start inside it.
  const span = openSpan("chat.turn", {
    "returns_desk.chat.id": chat.id,
    "returns_desk.user.id": userId,
    "returns_desk.model": info.id,
    "returns_desk.prompt_version": profile.promptVersion,
    ...(serving.canary ? { "returns_desk.profile": "canary" } : {}),
  });
  const stream = createUIMessageStream<ChatUIMessage>({
    generateId: () => assistantId,
    onError: (error) => {
      failed = true;
      log().error({ err: errorFields(error), chatId: chat.id }, "chat turn failed");
      return modelErrorText(lang);
    },
    execute: async ({ writer }) => {
      if (deadlineMs !== undefined) timer = setTimeout(() => deadline.abort(), deadlineMs);
      const tools = buildAiTools(
        ctx,
        {
          onProposal: (action) => {
            proposal = action;
            writer.write({
              type: "data-pending-action",
              id: action.id,
              data: presentAction(action, lang),
            });
          },
          onHandoff: (toolCallId) => {
            handoffCall ??= toolCallId;
          },
          // The turn's profile classifies its orders from these reads, not a second request.
          onOrderRead: (orderId, order) => {
            orderReads.set(orderId, order);
          },
        },
        { visitor, guest: guestOrders !== null },
      );
      // The provider's output is bounded and cleaned before the SDK acts on it (output-guard.ts).
      const guard = createOutputGuard({
        onRejected: (rejected) => auditRejectedCall(rejected, ctx),
        onDropped: (dropped) => auditDroppedCalls(dropped, ctx),
      });
      const result = span.run(() =>
        streamText({
          model: wrapLanguageModel({ model, middleware: guard.middleware }),
          system,
          messages: modelMessages,
          tools,
          abortSignal: deadline.signal,
          stopWhen: [
            stepCountIs(MAX_STEPS),
            () => proposal !== null,
            () => handoffCall !== null,
            () => guard.overrun,
          ],
          // The turn's tool calls are used up: the next response can only be text.
          prepareStep: () => (guard.callsLeft === 0 ? { toolChoice: "none" } : undefined),
          ...MODEL_CALL_SETTINGS,
          experimental_telemetry: aiTelemetry("chat-turn"),
          onChunk: meter.onChunk,
          // A canary chat is audited step by step (stronger audit while the candidate acts).
          onStepFinish: serving.canary
            ? async (step) => {
                await recordAudit({
                  ...ctx,
                  tool: "model:step",
                  status: "success",
                  result: {
                    fingerprint: profile.fingerprint,
                    answeredBy: fallback ? live.fingerprint : profile.fingerprint,
                    finishReason: step.finishReason,
                    toolCalls: step.toolCalls.map((c) => c.toolName),
                    textChars: step.text.length,
                  },
                });
              }
            : undefined,
          experimental_repairToolCall: async ({ toolCall }) => {
            await auditUnroutableCall(toolCall, ctx, tools);
            return null;
          },
          onError: ({ error }) => {
            failed = true;
            log().error({ err: errorFields(error), chatId: chat.id }, "model error");
          },
        }),
      );
      const ui = result.toUIMessageStream<ChatUIMessage>({
        sendFinish: false,
        generateMessageId: () => assistantId,
        // Only the text of an error part: real failures (provider error, cut stream) also reach
        // streamText's onError above, which marks the turn failed. A tool-call error (a tool
        // that does not exist, unparsable input) was already rejected and audited; the turn goes
        // on and is kept.
        onError: (error) =>
          NoSuchToolError.isInstance(error) || InvalidToolInputError.isInstance(error)
            ? "The tool call was rejected."
            : modelErrorText(lang),
      });
      for await (const chunk of ui) if (chunk.type !== "abort") writer.write(chunk);
      clearTimeout(timer);
      // Thrown once the stream stopped: onError above marks the turn failed and sends the
      // model-failure error part.
      if (deadline.signal.aborted) throw new Error("the chat turn ran past its deadline");
      if (failed) return;

      const steps = await result.steps;
      usage = await result.totalUsage;
      trace = traceSteps(steps, declaredInput);
      measured = {
        ...call(),
        ...describeSteps(steps, usage),
        refusals: trace.refusals,
        actionId: (proposal as PendingActionDto | null)?.id ?? null,
      };
      const last = steps.at(-1);
      if (handoffCall) {
        // The app's note, not the model's words: a person will answer from here on.
        const note = handoffNoteMessage(assistantId, lang, "waiting");
        for (const part of note.parts) if (part.type === "data-handoff") writer.write(part);
      }
      const closing = handoffCall
        ? handoffText(lang, "handoffNote")
        : proposal
          ? actionDescription(proposal, lang).confirmation
          : last && last.finishReason === "tool-calls" && last.text.trim() === ""
            ? overrunText(lang)
            : null;
      if (closing) writeText(writer, closing);
      writer.write({
        type: "finish",
        finishReason: proposal || handoffCall ? "tool-calls" : (last?.finishReason ?? "stop"),
      });
    },
    onFinish: async ({ responseMessage, isAborted }) => {
      clearTimeout(timer);
      const proposed = proposal as PendingActionDto | null;
      const handoff = handoffCall as string | null;
      span.finish(
        {
          "returns_desk.turn.outcome":
            failed || isAborted ? "failed" : proposed ? "proposed" : "answered",
          ...(proposed ? { "returns_desk.action.id": proposed.id } : {}),
          "returns_desk.turn.steps": measured?.steps ?? 0,
          "gen_ai.usage.input_tokens": measured?.inputTokens ?? 0,
          "gen_ai.usage.output_tokens": measured?.outputTokens ?? 0,
        },
        failed || isAborted,
      );
      let ended = false;
      try {
        // A turn that lost its lease (it cannot, within its deadline) must not write into a
        // history another turn now owns: ending the lease is the check, in the saving commit.
        const saved =
          !failed &&
          !isAborted &&
          (await saveTurn({
            chat,
            userMessage,
            assistantMessage: { ...responseMessage, id: assistantId },
            model: info.id,
            promptVersion: profile.promptVersion,
            usage: usage ?? null,
            modelCall: measured ?? call(),
            claim: endTurn,
            // Handed off in the saving commit: a failed turn hands nothing off.
            within: handoff
              ? async () => {
                  await requestHandoff({ chatId: chat.id, userId, toolCallId: handoff });
                }
              : undefined,
          }));
        ended = saved;
        if (!saved) {
          // Nothing of this turn is kept, so neither is a card it may have proposed.
          const pending = proposal as PendingActionDto | null;
          if (pending) await withdrawProposal({ actionId: pending.id });
          await recordModelCall({
            ...call(),
            ...measured,
            error: isAborted ? "aborted" : "model_error",
          });
          return;
        }
      } catch (err) {
        log().error({ err: errorFields(err), chatId: chat.id }, "could not save the turn");
        await recordModelCall({ ...call(), ...measured, error: "save_failed" });
        const pending = proposal as PendingActionDto | null;
        if (pending) await withdrawProposal({ actionId: pending.id });
        return;
      } finally {
        // The saving commit ended the lease; any other way out still has to.
        if (!ended) await endTurn();
      }
      // After the answer is out: folding may call the model again and must not hold the stream.
      void foldLongChat({ chatId: chat.id, userId, summarizedThrough: chat.summarizedThrough });
      // The turn's anonymised shape, for probes in the mix of live load (never its text).
      if (trace)
        void recordTurnProfile({
          userId,
          at: meter.startedAt,
          fingerprint: live.fingerprint,
          lang,
          messages: modelMessages.length,
          messageChars: text.length,
          answerChars: trace.answerChars,
          calls: trace.calls,
          orderReads,
          outcome: handoff
            ? "handed_off"
            : proposed
              ? "proposed"
              : trace.refusals > 0
                ? "refused"
                : "answered",
        });
      // Saved, so the candidate repeats only turns the customer has (and never delays this one).
      // A visitor's turns are not repeated: the candidate would be offered every tool.
      if (trace && measured && !visitor && guestOrders === null)
        scheduleShadowTurn({
          userId,
          chatId: chat.id,
          messageId: assistantId,
          startedAt: meter.startedAt,
          summary: chat.summary,
          messages: modelMessages,
          maxSteps: MAX_STEPS,
          live: {
            ...trace,
            proposedWrite: proposed !== null,
            latencyMs: measured.latencyMs,
            tokens:
              measured.inputTokens == null && measured.outputTokens == null
                ? null
                : (measured.inputTokens ?? 0) + (measured.outputTokens ?? 0),
            fingerprint: live.fingerprint,
          },
        });
    },
  });

  // Read to its end even if the browser goes away mid-answer: the turn runs on and is saved.
  return drainedUIMessageStreamResponse(stream);
}

function writeText(writer: UIMessageStreamWriter<ChatUIMessage>, text: string): void {
  const id = randomUUID();
  writer.write({ type: "text-start", id });
  writer.write({ type: "text-delta", id, delta: text });
  writer.write({ type: "text-end", id });
}
