/**
 * What a model provider may put into one chat turn. The provider is untrusted: one that answers
 * with 3,000 tool calls would otherwise get 3,000 executed and audited calls and a megabyte-sized
 * stored message, and NUL or terminal escapes in a tool's name or id would be stored and served.
 *
 * An AI SDK language-model middleware (wrapLanguageModel) between the provider and streamText
 * enforces it on the model's stream, before the SDK runs anything:
 * - at most `callsPerStep` tool calls per model response and `callsPerTurn` per turn; the calls
 *   past either bound are dropped unrun, and one audit event per response counts them
 *   (`too_many_tool_calls`); the turn then stops (stopWhen, `overrun`);
 * - a call whose name or id holds a control character (NUL, ESC, ...) is not routed but rejected
 *   and audited (`invalid_tool_call`, the name and id shown with the characters escaped);
 * - a call whose JSON arguments are longer than `argumentChars` is rejected and audited
 *   (`arguments_too_large`);
 * - the turn's text (answer and reasoning together) is cut at `textChars`; NUL is removed from
 *   it and from the arguments.
 * Rejected calls count against the bounds too, so a flood of bad calls is bounded the same way.
 * The tool-input streaming parts are dropped: nothing shows a call's arguments while they
 * arrive, and the SDK builds each call from its complete `tool-call` part.
 */
import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { withoutNul } from "@/lib/text/nul";

export const MODEL_OUTPUT_LIMITS = {
  callsPerStep: 8,
  callsPerTurn: 16,
  argumentChars: 4_000,
  textChars: 16_000,
} as const;

export type ModelOutputLimits = { [K in keyof typeof MODEL_OUTPUT_LIMITS]: number };

export type RejectedCall = {
  /** The name and id as the model sent them, control characters escaped (`\u001b`). */
  toolName: string;
  toolCallId: string;
  code: "invalid_tool_call" | "arguments_too_large";
  /** The arguments (NUL removed), or only their length when too large. */
  input: string | { chars: number };
};

export type DroppedCalls = {
  /** How many calls of one response were dropped for the bounds. */
  dropped: number;
  /** Their distinct names (escaped), the first ten. */
  tools: string[];
};

export type OutputGuardHooks = {
  onRejected(call: RejectedCall): Promise<void>;
  onDropped(calls: DroppedCalls): Promise<void>;
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Control characters as JSON writes them (`\u0000`, `\n`): visible, and storable anywhere. */
export const escapeControls = (s: string): string =>
  CONTROL.test(s) ? JSON.stringify(s).slice(1, -1) : s;

export function createOutputGuard(
  hooks: OutputGuardHooks,
  limits: ModelOutputLimits = MODEL_OUTPUT_LIMITS,
) {
  let turnCalls = 0;
  let turnText = 0;
  let overrun = false;

  const middleware: LanguageModelV3Middleware = {
    specificationVersion: "v3",
    wrapStream: async ({ doStream }) => {
      const { stream, ...rest } = await doStream();
      // One doStream is one model response: one step of the turn.
      let stepCalls = 0;
      const dropped = new Map<string, number>();
      const toolCall = async (
        part: Extract<LanguageModelV3StreamPart, { type: "tool-call" }>,
        controller: TransformStreamDefaultController<LanguageModelV3StreamPart>,
      ): Promise<void> => {
        if (stepCalls >= limits.callsPerStep || turnCalls >= limits.callsPerTurn) {
          const name = escapeControls(part.toolName).slice(0, 200);
          dropped.set(name, (dropped.get(name) ?? 0) + 1);
          overrun = true;
          return;
        }
        stepCalls++;
        turnCalls++;
        const toolName = escapeControls(part.toolName);
        const toolCallId = escapeControls(part.toolCallId);
        if (toolName !== part.toolName || toolCallId !== part.toolCallId) {
          await hooks.onRejected({
            toolName,
            toolCallId,
            code: "invalid_tool_call",
            input: withoutNul(part.input).slice(0, limits.argumentChars),
          });
          return;
        }
        if (part.input.length > limits.argumentChars) {
          await hooks.onRejected({
            toolName,
            toolCallId,
            code: "arguments_too_large",
            input: { chars: part.input.length },
          });
          return;
        }
        controller.enqueue({ ...part, input: withoutNul(part.input) });
        return;
      };
      const guard = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        // Synchronous for every part but a tool call: an async transform costs a promise per
        // text delta, and a turn is mostly text deltas.
        transform(part, controller) {
          switch (part.type) {
            case "text-delta":
            case "reasoning-delta": {
              const room = Math.max(0, limits.textChars - turnText);
              const delta = withoutNul(part.delta).slice(0, room);
              turnText += delta.length;
              if (delta) controller.enqueue({ ...part, delta });
              return;
            }
            case "tool-input-start":
            case "tool-input-delta":
            case "tool-input-end":
              return;
            case "tool-call":
              return toolCall(part, controller);
          }
          controller.enqueue(part);
        },
        async flush() {
          if (dropped.size === 0) return;
          let count = 0;
          for (const n of dropped.values()) count += n;
          await hooks.onDropped({ dropped: count, tools: [...dropped.keys()].slice(0, 10) });
        },
      });
      return { stream: stream.pipeThrough(guard), ...rest };
    },
  };

  return {
    middleware,
    /** True once a call was dropped for the bounds: the turn stops after this step. */
    get overrun() {
      return overrun;
    },
    /** Calls the turn may still make. */
    get callsLeft() {
      return Math.max(0, limits.callsPerTurn - turnCalls);
    },
  };
}
