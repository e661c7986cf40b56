/**
 * The offline model behind the OpenAI protocol: a Responder for the loopback server
 * (openai-server.ts) that translates each Chat Completions request into the prompt the offline
 * model reads and its decision back into a scripted answer. The app then talks to a real
 * OpenAI-compatible endpoint (the @ai-sdk/openai provider, SSE, tool calls split across chunks)
 * whose answers are the offline model's, so the eval can exercise the protocol path with known
 * behaviour.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { z } from "zod";
import { OfflineLanguageModel } from "@/lib/ai/models/offline";
import type { RecordedRequest, Responder, Script } from "./openai-server";

const TEXT_PART = z.object({ type: z.literal("text"), text: z.string() });
const CALL = z.object({
  id: z.string(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
const MESSAGE = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(TEXT_PART)]) }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullish(),
    tool_calls: z.array(CALL).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);
const TOOL = z.object({ function: z.object({ name: z.string() }) });

function toPrompt(messages: unknown[]): LanguageModelV3Prompt {
  const names = new Map<string, string>();
  return messages.map((raw) => {
    const m = MESSAGE.parse(raw);
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content };
      case "user":
        return {
          role: "user",
          content: (typeof m.content === "string"
            ? [{ type: "text", text: m.content }]
            : m.content
          ).map((p) => ({ type: "text" as const, text: p.text })),
        };
      case "assistant":
        for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
        return {
          role: "assistant",
          content: [
            ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
            ...(m.tool_calls ?? []).map((c) => ({
              type: "tool-call" as const,
              toolCallId: c.id,
              toolName: c.function.name,
              input: JSON.parse(c.function.arguments) as unknown,
            })),
          ],
        };
      default:
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: m.tool_call_id,
              toolName: names.get(m.tool_call_id) ?? "unknown",
              output: { type: "text", value: m.content },
            },
          ],
        };
    }
  });
}

/** Answers every request as the offline model would. */
export function offlineResponder(): Responder {
  const model = new OfflineLanguageModel();
  return (request: RecordedRequest): Script => {
    const options = {
      prompt: toPrompt(request.body.messages),
      tools: (request.body.tools ?? []).map((t) => ({
        type: "function" as const,
        name: TOOL.parse(t).function.name,
        inputSchema: {},
      })),
    } as LanguageModelV3CallOptions;
    const planned = model.plan(options);
    if (planned.calls) {
      return {
        type: "tool-calls",
        text: planned.text,
        calls: planned.calls.map((c) => ({ name: c.toolName, arguments: c.input })),
      };
    }
    return { type: "text", text: planned.text };
  };
}
