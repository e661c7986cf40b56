/**
 * Drives the offline model the way the chat turn does: the real AI SDK loop (streamText or
 * generateText), the real tool registry and executor against a seeded SQLite file, and a stop
 * once a write became a proposal. Only the model is ours; nothing here fakes our own code.
 */

import type { JSONValue, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import { expect } from "vitest";
import { executeToolCall, type ToolCallOutcome } from "@/lib/actions/executor";
import { modelView } from "@/lib/actions/model-view";
import { OfflineLanguageModel } from "@/lib/ai/models/offline";
import { buildSystemPrompt } from "@/lib/ai/prompts";
import { toolDescriptors } from "@/lib/tools/registry";

export type Call = { toolName: string; input: unknown };
export type Turn = {
  /** The offline model's own label for its first step (providerMetadata), for cross-checks. */
  behaviour: string | undefined;
  /** Its label for the turn's last step (what it answered once its lookups returned). */
  lastBehaviour: string | undefined;
  /** Tool calls of the first step: what the model decided from the customer's message. */
  decided: Call[];
  /** Every tool call of the turn, all steps. */
  calls: Call[];
  /** Tool outputs as the model saw them. */
  outputs: unknown[];
  text: string;
  proposed: boolean;
  steps: number;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
};

/** The registry's tools, advertised without SDK-side validation so our executor judges input. */
export function registryTools(ctx: { userId: string; chatId: string }): ToolSet {
  const tools: ToolSet = {};
  for (const d of toolDescriptors()) {
    tools[d.name] = tool({
      description: d.description,
      inputSchema: jsonSchema<unknown>(d.inputJsonSchema),
      execute: async (input: unknown, { toolCallId }) =>
        modelView(await executeToolCall(d.name, input, { ...ctx, toolCallId })),
    });
  }
  return tools;
}

const proposedIn = (steps: StepResult<ToolSet>[]) =>
  steps.some((s) =>
    s.toolResults.some(
      (r) => (r.output as { status?: string } | undefined)?.status === "confirmation_required",
    ),
  );

/** A chat: keeps the model messages between turns, as the server keeps them in the database. */
export class Chat {
  readonly messages: ModelMessage[] = [];
  constructor(
    private readonly ctx: { userId: string; chatId: string },
    private readonly opts: {
      mode?: "stream" | "generate";
      summary?: string | null;
      tools?: ToolSet | null;
      model?: OfflineLanguageModel;
    } = {},
  ) {}

  async say(text: string): Promise<Turn> {
    const model = this.opts.model ?? new OfflineLanguageModel();
    const tools =
      this.opts.tools === null ? undefined : (this.opts.tools ?? registryTools(this.ctx));
    const messages: ModelMessage[] = [...this.messages, { role: "user", content: text }];
    const settings = {
      model,
      system: buildSystemPrompt({ summary: this.opts.summary ?? null }),
      messages,
      tools,
      maxRetries: 0,
      stopWhen: [
        stepCountIs(5),
        ({ steps }: { steps: StepResult<ToolSet>[] }) => proposedIn(steps),
      ],
    };
    const result =
      this.opts.mode === "generate" ? await generateText(settings) : streamText(settings);
    const steps = await result.steps;
    const usage = await result.totalUsage;
    const response = await result.response;
    this.messages.push({ role: "user", content: text }, ...response.messages);
    const calls = steps.flatMap((s) =>
      s.toolCalls.map((c) => ({ toolName: c.toolName, input: c.input })),
    );
    const meta = steps[0]?.providerMetadata?.offline as { behaviour?: string } | undefined;
    const lastMeta = steps.at(-1)?.providerMetadata?.offline as { behaviour?: string } | undefined;
    return {
      behaviour: meta?.behaviour,
      lastBehaviour: lastMeta?.behaviour,
      decided: (steps[0]?.toolCalls ?? []).map((c) => ({ toolName: c.toolName, input: c.input })),
      calls,
      outputs: steps.flatMap((s) => s.toolResults.map((r) => r.output)),
      text: await result.text,
      proposed: proposedIn(steps),
      steps: steps.length,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
    };
  }
}

/**
 * The model's answer once the real executor answered its call to `toolName`: the turn as the SDK
 * replays it (the customer's message, the call, the result as the model sees it); also after a
 * proposal, where Chat stops.
 */
export async function answerAfterCall(
  ctx: { userId: string; chatId: string },
  text: string,
  toolName: string,
  input: Record<string, unknown>,
): Promise<{ outcome: ToolCallOutcome; text: string }> {
  const outcome = await executeToolCall(toolName, input, {
    ...ctx,
    promptVersion: "test-prompt-1",
    model: "test-model",
  });
  // As the SDK carries it between steps: JSON.
  const value = JSON.parse(JSON.stringify(modelView(outcome))) as JSONValue;
  const output: LanguageModelV3ToolResultOutput = { type: "json", value };
  const result = await new OfflineLanguageModel().doGenerate({
    prompt: [
      { role: "user", content: [{ type: "text", text }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName, input }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName, output }] },
    ],
    tools: [],
  });
  return { outcome, text: result.content[0]?.type === "text" ? result.content[0].text : "" };
}

const CYRILLIC = /\p{Script=Cyrillic}/gu;
const LATIN = /\p{Script=Latin}/gu;

/** The language a reply is written in, by its letters (item names like "Barista Pro" are few). */
export function replyLanguage(reply: string): "ru" | "en" {
  // What is in parentheses is data (an order's item names, as the shop spells them), not language.
  let text = reply;
  for (let inner = /\([^()]*\)/g; inner.test(text); ) text = text.replace(inner, "");
  const ru = text.match(CYRILLIC)?.length ?? 0;
  const en = text.match(LATIN)?.length ?? 0;
  return ru > en ? "ru" : "en";
}

/**
 * Each message makes the model call `tool` and answer with exactly the expected reply, with no
 * card proposed: the tool's own refusal, told in the customer's words.
 */
export async function expectReplies(
  say: (text: string) => Promise<Turn>,
  tool: string,
  cases: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [text, expected] of cases) {
    const turn = await say(text);
    expect(
      turn.decided.map((c) => c.toolName),
      text,
    ).toEqual([tool]);
    expect(turn.proposed, text).toBe(false);
    expect(turn.text, text).toBe(expected);
  }
}
