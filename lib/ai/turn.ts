/**
 * One chat turn: history from the database (never from the request), the AI SDK tool loop
 * with the registry's tools, and the UI message stream back to the browser. A proposed write
 * stops the loop; the app writes the confirmation sentence and a `data-pending-action` part.
 * The turn is persisted only when it completes: a failed turn leaves the history untouched.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type LanguageModelUsage,
  stepCountIs,
  streamText,
  type UIMessageStreamWriter,
} from "ai";
import type { ChatRow } from "@/db/queries/chats";
import { withdrawProposal } from "@/lib/actions";
import type { PendingActionDto } from "@/lib/actions/dto";
import { modelErrorText, overrunText, proposalText } from "@/lib/chat/app-text";
import { foldLongChat } from "@/lib/chat/fold";
import { detectLanguage } from "@/lib/chat/language";
import { loadTurnHistory, saveTurn } from "@/lib/chat/persist";
import type { ChatUIMessage } from "@/lib/chat/types";
import { toModelMessages } from "./history";
import {
  describeSteps,
  ModelCallMeter,
  type ModelCallRecord,
  recordModelCall,
} from "./model-calls";
import { getChatModel, MODEL_CALL_SETTINGS } from "./models";
import { ACTIVE_PROMPT_VERSION, buildSystemPrompt } from "./prompts";
import { auditUnroutableCall, buildAiTools } from "./tools";

/** The loop's bound: reads feed back into the model at most this many times. */
export const MAX_STEPS = 5;

export async function runChatTurn({
  userId,
  chat,
  text,
  onDone,
}: {
  userId: string;
  chat: ChatRow;
  text: string;
  /** Called exactly once when the turn is over, saved or not. */
  onDone: () => void;
}): Promise<Response> {
  const { model, info } = getChatModel();
  const lang = detectLanguage(text);
  const ctx = { userId, chatId: chat.id, promptVersion: ACTIVE_PROMPT_VERSION, model: info.id };
  const userMessage: ChatUIMessage = {
    id: randomUUID(),
    role: "user",
    parts: [{ type: "text", text }],
  };
  const history = loadTurnHistory(chat);
  const modelMessages = await toModelMessages([...history, userMessage]);
  const assistantId = randomUUID();

  let proposal: PendingActionDto | null = null;
  let failed = false;
  let usage: LanguageModelUsage | undefined;
  let measured: ModelCallRecord | undefined;
  const meter = new ModelCallMeter();
  const call = (): ModelCallRecord => ({
    kind: "turn",
    startedAt: meter.startedAt,
    userId,
    chatId: chat.id,
    provider: info.provider,
    model: info.id,
    promptVersion: ACTIVE_PROMPT_VERSION,
    firstOfChat: history.length === 0 && chat.summarizedThrough === 0,
    steps: 0,
    toolCalls: [],
    ...meter.measure(),
  });

  const stream = createUIMessageStream<ChatUIMessage>({
    generateId: () => assistantId,
    onError: (error) => {
      failed = true;
      console.error("[returns-desk] chat turn failed", error);
      return modelErrorText(lang);
    },
    execute: async ({ writer }) => {
      const tools = buildAiTools(ctx, {
        onProposal: (action) => {
          proposal = action;
          writer.write({ type: "data-pending-action", id: action.id, data: action });
        },
      });
      const result = streamText({
        model,
        system: buildSystemPrompt({ summary: chat.summary }),
        messages: modelMessages,
        tools,
        stopWhen: [stepCountIs(MAX_STEPS), () => proposal !== null],
        ...MODEL_CALL_SETTINGS,
        onChunk: meter.onChunk,
        experimental_repairToolCall: async ({ toolCall }) => {
          await auditUnroutableCall(toolCall, ctx);
          return null;
        },
        onError: ({ error }) => {
          failed = true;
          console.error("[returns-desk] model error", error);
        },
      });
      const ui = result.toUIMessageStream<ChatUIMessage>({
        sendFinish: false,
        generateMessageId: () => assistantId,
        onError: () => {
          failed = true;
          return modelErrorText(lang);
        },
      });
      for await (const chunk of ui) writer.write(chunk);
      if (failed) return;

      const steps = await result.steps;
      usage = await result.totalUsage;
      measured = { ...call(), ...describeSteps(steps, usage) };
      const last = steps.at(-1);
      const closing = proposal
        ? proposalText(proposal, lang)
        : last && last.finishReason === "tool-calls" && last.text.trim() === ""
          ? overrunText(lang)
          : null;
      if (closing) writeText(writer, closing);
      writer.write({
        type: "finish",
        finishReason: proposal ? "tool-calls" : (last?.finishReason ?? "stop"),
      });
    },
    onFinish: ({ responseMessage, isAborted }) => {
      try {
        if (failed || isAborted) {
          // Nothing of this turn is kept, so neither is a card it may have proposed.
          const pending = proposal as PendingActionDto | null;
          if (pending) withdrawProposal({ actionId: pending.id });
          recordModelCall({ ...call(), ...measured, error: isAborted ? "aborted" : "model_error" });
          return;
        }
        saveTurn({
          chat,
          userMessage,
          assistantMessage: { ...responseMessage, id: assistantId },
          model: info.id,
          promptVersion: ACTIVE_PROMPT_VERSION,
          usage: usage ?? null,
          modelCall: measured ?? call(),
        });
      } catch (err) {
        console.error("[returns-desk] could not save the turn", err);
        recordModelCall({ ...call(), ...measured, error: "save_failed" });
        const pending = proposal as PendingActionDto | null;
        if (pending) withdrawProposal({ actionId: pending.id });
        return;
      } finally {
        onDone();
      }
      // After the answer is out: folding may call the model again and must not hold the stream.
      void foldLongChat({ chatId: chat.id, userId });
    },
  });

  return createUIMessageStreamResponse({
    stream,
    // A second reader keeps the turn running (and saved) if the browser goes away mid-answer.
    consumeSseStream: async ({ stream: copy }) => {
      const reader = copy.getReader();
      while (!(await reader.read()).done) {}
    },
  });
}

function writeText(writer: UIMessageStreamWriter<ChatUIMessage>, text: string): void {
  const id = randomUUID();
  writer.write({ type: "text-start", id });
  writer.write({ type: "text-delta", id, delta: text });
  writer.write({ type: "text-end", id });
}
