/**
 * The offline model: a LanguageModelV3 written in this project, so the real AI SDK loop
 * (streamText/generateText, tool calls, tool results, steps) runs with no network. Same prompt in,
 * same answer out; only call ids are random (they must be unique across a chat).
 */
import { randomUUID } from "node:crypto";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3Warning,
} from "@ai-sdk/provider";
import { VISITOR_NOTE } from "../../prompts";
import { OFFLINE_MODEL_ID } from "../info";
import { answerFromResults } from "./answer";
import { readConversation } from "./conversation";
import { type Decision, decideForMessage, remainingWrite, splitCompound } from "./decide";
import { REPLIES } from "./replies";
import { estimateTokens } from "./text";

export type OfflineModelOptions = {
  /** Tool-call and response ids; tests may pass a counter for stable snapshots. */
  generateId?: () => string;
};

type Planned = Decision & { rule: string };

function promptTokens(options: LanguageModelV3CallOptions): number {
  return options.prompt.reduce((sum, m) => {
    if (m.role === "system") return sum + estimateTokens(m.content);
    return (
      sum +
      m.content.reduce(
        (s, p) =>
          s +
          estimateTokens(
            p.type === "text" || p.type === "reasoning"
              ? p.text
              : p.type === "tool-call"
                ? JSON.stringify(p.input)
                : p.type === "tool-result"
                  ? JSON.stringify(p.output)
                  : "",
          ),
        0,
      )
    );
  }, 0);
}

/** Structured output is not something rules can produce; say so instead of failing silently. */
function warnings(options: LanguageModelV3CallOptions): SharedV3Warning[] {
  return options.responseFormat?.type === "json"
    ? [
        {
          type: "unsupported",
          feature: "responseFormat",
          details: "the offline model answers in text only",
        },
      ]
    : [];
}

function usage(input: number, output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** The system prompt says the person writing is a visitor who is not signed in (VISITOR_NOTE). */
function isVisitor(options: LanguageModelV3CallOptions): boolean {
  return options.prompt.some((m) => m.role === "system" && m.content.includes(VISITOR_NOTE));
}

/** Only tools the caller offered may be called: the turn decides the allowlist, not the model. */
function offeredTools(options: LanguageModelV3CallOptions): Set<string> {
  return new Set(
    options.toolChoice?.type === "none" ? [] : (options.tools ?? []).map((t) => t.name),
  );
}

export class OfflineLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "offline";
  readonly modelId = OFFLINE_MODEL_ID;
  readonly supportedUrls = {};
  private readonly generateId: () => string;

  constructor(options: OfflineModelOptions = {}) {
    this.generateId = options.generateId ?? (() => randomUUID().replaceAll("-", "").slice(0, 24));
  }

  /** The whole "thinking": read the prompt, then either phrase tool results or decide anew. */
  plan(options: LanguageModelV3CallOptions): Planned {
    const c = readConversation(options.prompt);
    if (c.outcomes.length > 0) {
      // Two requests in one message: the question is answered, and the write proposed with it.
      const compound = c.last ? splitCompound(c.last, c) : null;
      // A return whose order was looked up before its reason is asked: the policy's word on it.
      const checked = c.last && !compound ? decideForMessage(c.last, c) : null;
      if (checked?.afterLookup) return checked;
      const answer = answerFromResults(c, compound?.questions, isVisitor(options));
      const write = remainingWrite(compound, c.outcomes);
      return write && offeredTools(options).has(write.toolName)
        ? { behaviour: "propose", text: answer.text, calls: [write], rule: "answer, then propose" }
        : { ...answer, rule: "answer from tool results" };
    }
    const decision: Planned = c.last
      ? decideForMessage(c.last, c)
      : { behaviour: "small_talk", text: REPLIES[c.lang].greeting, rule: "no customer message" };
    if (!decision.calls) return decision;
    const offered = offeredTools(options);
    if (decision.calls.every((call) => offered.has(call.toolName))) return decision;
    // A visitor who is not signed in at the store is offered the policy alone: anything else
    // needs their account, so they are sent to the store's sign-in, not told to try later.
    if (isVisitor(options))
      return { behaviour: "refuse", text: REPLIES[c.lang].signInAtStore, rule: "visitor" };
    return { behaviour: "refuse", text: REPLIES[c.lang].noTools, rule: "tool not offered" };
  }

  private content(options: LanguageModelV3CallOptions) {
    options.abortSignal?.throwIfAborted();
    const planned = this.plan(options);
    const content: LanguageModelV3Content[] = [
      ...(planned.text ? [{ type: "text" as const, text: planned.text }] : []),
      ...(planned.calls ?? []).map((call) => ({
        type: "tool-call" as const,
        toolCallId: `call_${this.generateId()}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      })),
    ];
    const out = content.reduce(
      (s, p) =>
        s + estimateTokens(p.type === "text" ? p.text : p.type === "tool-call" ? p.input : ""),
      0,
    );
    return {
      planned,
      content,
      usage: usage(promptTokens(options), out),
      finishReason: {
        unified: planned.calls ? ("tool-calls" as const) : ("stop" as const),
        raw: planned.calls ? "tool_calls" : "stop",
      },
      // Which rule answered: for debugging and the audit, never needed by the loop.
      providerMetadata: { offline: { behaviour: planned.behaviour, rule: planned.rule } },
    };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { content, usage, finishReason, providerMetadata } = this.content(options);
    return {
      content,
      finishReason,
      usage,
      providerMetadata,
      warnings: warnings(options),
      response: { id: `resp_${this.generateId()}`, modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV3CallOptions) {
    const { content, usage, finishReason, providerMetadata } = this.content(options);
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: warnings(options) },
      {
        type: "response-metadata",
        id: `resp_${this.generateId()}`,
        modelId: this.modelId,
        timestamp: new Date(),
      },
    ];
    for (const p of content) {
      if (p.type === "text") {
        const id = "text-0";
        parts.push({ type: "text-start", id });
        // Word-sized deltas, so the UI streams like it does with a hosted model.
        for (const delta of p.text.match(/\S+\s*/g) ?? [])
          parts.push({ type: "text-delta", id, delta });
        parts.push({ type: "text-end", id });
      } else if (p.type === "tool-call") {
        const id = p.toolCallId;
        parts.push(
          { type: "tool-input-start", id, toolName: p.toolName },
          { type: "tool-input-delta", id, delta: p.input },
          { type: "tool-input-end", id },
          p,
        );
      }
    }
    parts.push({ type: "finish", finishReason, usage, providerMetadata });
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return { stream };
  }
}
