/**
 * Hands the registry (the allowlist) to the AI SDK. The SDK does not validate input itself
 * (jsonSchema without a validator): every call goes through our executor, which validates,
 * audits, runs reads, and turns writes into pending actions.
 */
import "server-only";
import { jsonSchema, type ToolSet, tool } from "ai";
import type { PendingActionDto } from "@/lib/actions/dto";
import { dryRunToolCall, type ExecutorContext, executeToolCall } from "@/lib/actions/executor";
import { modelView, PROPOSAL_NOTE } from "@/lib/actions/model-view";
import { recordAudit } from "@/lib/audit-log/record";
import { REQUEST_HUMAN } from "@/lib/chat/handoff/names";
import { type DeclaredArguments, keepDeclared } from "@/lib/tools/declared";
import { getTool, toolDescriptors } from "@/lib/tools/registry";
import type { OrderReadHook } from "@/lib/tools/types";
import type { DroppedCalls, RejectedCall } from "./output-guard";

export type TurnToolHooks = {
  /** A write was accepted as a proposal; the turn must stop and show the card. */
  onProposal(action: PendingActionDto): void;
  /**
   * The customer asked for a person (`request_human`); the turn must stop. The chat is handed
   * off when the turn is saved (lib/chat/handoff), so a failed turn hands nothing off.
   */
  onHandoff(toolCallId: string): void;
  /** Every order a tool read at the store, as the store answered (the turn's profile). */
  onOrderRead?: OrderReadHook;
};

/** `request_human` takes no arguments: asking for a person needs no confirmation. */
const REQUEST_HUMAN_TOOL = {
  description:
    "Hand the conversation to a person of the support team when the customer asks for a human (an operator, an agent, a real person). Takes no arguments and needs no confirmation: it only changes who answers. After it, do not answer further.",
  inputJsonSchema: { type: "object", properties: {}, additionalProperties: false },
} as const;

/**
 * Every tool the turn advertises, as the model sees it (name, description, JSON schema): a
 * profile's fingerprint hashes these, so a changed schema is a changed profile.
 */
export function advertisedTools(): {
  name: string;
  description: string;
  inputJsonSchema: unknown;
}[] {
  return [
    ...toolDescriptors().map(({ name, description, inputJsonSchema }) => ({
      name,
      description,
      inputJsonSchema,
    })),
    { name: REQUEST_HUMAN, ...REQUEST_HUMAN_TOOL },
  ];
}

/**
 * A call's arguments as the anonymised records may keep them: validated against the tool's own
 * zod schema when they pass it, and in any case only the keys its schema declares (the JSON
 * Schema the model was shown, converted from that zod schema), the rest counted, never named.
 * A tool the turn does not advertise declares nothing.
 */
export function declaredInput(name: string, input: unknown): DeclaredArguments {
  const schema = advertisedTools().find((t) => t.name === name)?.inputJsonSchema;
  const kept = keepDeclared(schema, input);
  const parsed = getTool(name)?.args.safeParse(input);
  // The validated arguments are the tool's own reading of the call (normalised text); cut to
  // the declared keys again, since a schema's transform is not bound to its input's keys.
  if (parsed?.success)
    return { args: keepDeclared(schema, parsed.data).args, unknownKeys: kept.unknownKeys };
  return kept;
}

/**
 * The tools a turn offers: everything for a signed-in customer; for a visitor who is not signed
 * in (`visitor`), only the read tools declared for visitors (the return policy), no order tool,
 * no write tool and no hand-off. What is not in the set cannot be called: the SDK routes a call
 * only to a tool it was given, and anything else is audited as unroutable.
 */
function offered(visitor: boolean) {
  return toolDescriptors().filter((d) => !visitor || d.visitors);
}

export function buildAiTools(
  ctx: Omit<ExecutorContext, "toolCallId">,
  hooks: TurnToolHooks,
  {
    visitor = false,
    guest = false,
  }: {
    visitor?: boolean;
    /** A guest who verified an order: its tools, but no hand-off (no account to hand off). */
    guest?: boolean;
  } = {},
): ToolSet {
  // No prototype: the SDK looks a model's tool name up with tools[name], and on a plain object
  // "__proto__", "constructor" or "valueOf" would find Object.prototype's members instead of
  // nothing, skipping the reject-and-audit path for unknown tools.
  const tools: ToolSet = Object.create(null);
  // Parallel tool calls run concurrently: the slot is taken synchronously, before any await,
  // so two writes in one response can never both become cards.
  let writeSlotTaken = false;
  for (const d of offered(visitor)) {
    tools[d.name] = tool({
      description: d.description,
      inputSchema: jsonSchema<Record<string, unknown>>(d.inputJsonSchema),
      execute: async (input: unknown, { toolCallId }) => {
        if (d.access === "write" && writeSlotTaken) {
          // A second write in the same turn (parallel calls) would put two cards on screen.
          const error = {
            status: "rejected" as const,
            code: "one_action_at_a_time",
            message: "Another action is already waiting for the customer's decision.",
          };
          await recordAudit({
            ...ctx,
            tool: d.name,
            access: "write",
            status: error.status,
            errorCode: error.code,
            toolCallId,
            arguments: input,
            result: { code: error.code },
          });
          return { ok: false, error };
        }
        if (d.access === "write") writeSlotTaken = true;
        const outcome = await executeToolCall(d.name, input, {
          ...ctx,
          toolCallId,
          onOrderRead: hooks.onOrderRead,
        });
        if (outcome.kind === "proposal") hooks.onProposal(outcome.action);
        // A write that proposed nothing (rejected, refused by policy) frees the slot: the model
        // may correct itself in the next step.
        else if (d.access === "write") writeSlotTaken = false;
        return modelView(outcome);
      },
    });
  }
  if (visitor || guest) return tools;
  tools[REQUEST_HUMAN] = tool({
    description: REQUEST_HUMAN_TOOL.description,
    inputSchema: jsonSchema<Record<string, unknown>>(REQUEST_HUMAN_TOOL.inputJsonSchema),
    // Whatever the model passes is ignored: there is nothing to choose.
    execute: async (_input: unknown, { toolCallId }) => {
      hooks.onHandoff(toolCallId);
      return { ok: true, data: { handoff: "waiting" } };
    },
  });
  return tools;
}

export type DryRunHooks = {
  /** A write was planned (the policy allowed it): live, the customer would now see a card. */
  onPlanned(): void;
  onHandoff(): void;
};

/**
 * The same tools for a candidate profile in shadow, run dry (dryRunToolCall): reads answer, a
 * write only plans, and nothing is audited or stored. The model is told what the live one is
 * told of a proposal, so both trajectories stop at the same point.
 */
export function buildDryRunTools(
  ctx: { userId: string; chatId: string },
  hooks: DryRunHooks,
): ToolSet {
  const tools: ToolSet = Object.create(null);
  let writeSlotTaken = false;
  for (const d of toolDescriptors()) {
    tools[d.name] = tool({
      description: d.description,
      inputSchema: jsonSchema<Record<string, unknown>>(d.inputJsonSchema),
      execute: async (input: unknown) => {
        if (d.access === "write" && writeSlotTaken) {
          return {
            ok: false,
            error: {
              status: "rejected",
              code: "one_action_at_a_time",
              message: "Another action is already waiting for the customer's decision.",
            },
          };
        }
        if (d.access === "write") writeSlotTaken = true;
        const outcome = await dryRunToolCall(d.name, input, ctx);
        if (outcome.kind === "planned") {
          hooks.onPlanned();
          return {
            ok: true,
            status: "confirmation_required",
            actionId: "dry-run",
            message: PROPOSAL_NOTE,
          };
        }
        if (d.access === "write") writeSlotTaken = false;
        return modelView(outcome);
      },
    });
  }
  tools[REQUEST_HUMAN] = tool({
    description: REQUEST_HUMAN_TOOL.description,
    inputSchema: jsonSchema<Record<string, unknown>>(REQUEST_HUMAN_TOOL.inputJsonSchema),
    execute: async () => {
      hooks.onHandoff();
      return { ok: true, data: { handoff: "waiting" } };
    },
  });
  return tools;
}

/**
 * Calls the SDK could not route to a tool (unknown name, unparsable JSON) never reach
 * `execute`; send them through the executor anyway so they are rejected and audited. A tool
 * that exists but was not offered this turn (a visitor's model calling an order tool) must not
 * run at all: the executor knows every tool, so that call is refused here, audited, and never
 * reaches it. `offered` is the turn's tool set.
 */
export async function auditUnroutableCall(
  call: { toolName: string; toolCallId: string; input: string },
  ctx: Omit<ExecutorContext, "toolCallId">,
  offered: ToolSet,
): Promise<void> {
  let input: unknown = call.input;
  try {
    input = JSON.parse(call.input);
  } catch {
    // Unparsable JSON is exactly what gets rejected; keep the raw text for the audit.
  }
  if (!Object.hasOwn(offered, call.toolName) && getTool(call.toolName)) {
    await recordAudit({
      ...ctx,
      tool: call.toolName,
      access: null,
      status: "rejected",
      errorCode: "tool_not_offered",
      toolCallId: call.toolCallId,
      arguments: input,
      result: { code: "tool_not_offered" },
    });
    return;
  }
  await executeToolCall(call.toolName, input, { ...ctx, toolCallId: call.toolCallId });
}

/** A call the output guard refused before routing (a control character, oversized arguments). */
export async function auditRejectedCall(
  call: RejectedCall,
  ctx: Omit<ExecutorContext, "toolCallId">,
): Promise<void> {
  await recordAudit({
    ...ctx,
    tool: call.toolName,
    access: null,
    status: "rejected",
    errorCode: call.code,
    toolCallId: call.toolCallId,
    arguments: call.input,
    result: { code: call.code },
  });
}

/** The calls of one model response past the guard's bounds: one event for all of them. */
export async function auditDroppedCalls(
  calls: DroppedCalls,
  ctx: Omit<ExecutorContext, "toolCallId">,
): Promise<void> {
  await recordAudit({
    ...ctx,
    tool: calls.tools[0] ?? "(unnamed)",
    access: null,
    status: "rejected",
    errorCode: "too_many_tool_calls",
    arguments: calls,
    result: { code: "too_many_tool_calls", dropped: calls.dropped },
  });
}
