/**
 * The single entry point for every tool call the model makes. The model is untrusted input:
 * the name is looked up in the allowlist, the arguments are validated by the tool's strict
 * schema, reads run with a timeout, writes only become proposals, and results are checked
 * against their schema. Exactly one audit event per call, whatever happens.
 */
import "server-only";
import type { z } from "zod";
import { writeTransaction } from "@/db/queries/tx";
import type { AuditStatus } from "@/db/schema";
import { recordAudit } from "@/lib/audit-log/record";
import { errorFields, log } from "@/lib/log";
import { annotateActiveSpan } from "@/lib/telemetry/tracer";
import { withoutNul } from "@/lib/text/nul";
import { getTool, type ToolRegistry, toolRegistry } from "@/lib/tools/registry";
import {
  type AnyTool,
  DEFAULT_TOOL_TIMEOUT_MS,
  type OrderReadHook,
  ToolBusinessError,
  type WriteResult,
  type WriteTool,
} from "@/lib/tools/types";
import type { PendingActionDto } from "./dto";
import { existingEffect, storeProposal } from "./propose";

export type ExecutorContext = {
  userId: string;
  chatId: string;
  toolCallId?: string | null;
  promptVersion?: string | null;
  model?: string | null;
  /** `canary` when the candidate profile serves the chat: every audit event says so. */
  profile?: string | null;
  now?: Date;
  /** Hears every order a tool read at the store (the turn's profile classifies them). */
  onOrderRead?: OrderReadHook;
};

export type ToolIssue = { path: string; message: string };
export type ToolErrorStatus = Extract<
  AuditStatus,
  "rejected" | "business_error" | "timeout" | "technical_error"
>;

export type ToolCallOutcome =
  | { kind: "result"; tool: string; data: unknown }
  | { kind: "proposal"; tool: string; action: PendingActionDto }
  /** A write whose business key already had its effect: answered, nothing proposed. */
  | { kind: "existing"; tool: string; data: WriteResult }
  | {
      kind: "error";
      tool: string;
      status: ToolErrorStatus;
      code: string;
      message: string;
      issues?: ToolIssue[];
    };

class ToolTimeout extends Error {}

function withTimeout<T>(work: () => Promise<T> | T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeout()), ms);
  });
  return Promise.race([Promise.resolve().then(work), expired]).finally(() => clearTimeout(timer));
}

const toIssues = (e: z.ZodError): ToolIssue[] =>
  e.issues.map((i) => ({
    path: i.path.map(String).join(".") || "(arguments)",
    message: i.message,
  }));

function errorOutcome(
  tool: string,
  status: ToolErrorStatus,
  code: string,
  message: string,
  issues?: ToolIssue[],
) {
  return { kind: "error", tool, status, code, message, ...(issues ? { issues } : {}) } as const;
}

/**
 * What the live call and the dry run share: validation, a read's answer, a write answered from
 * an existing record, and the write's plan(), each under the tool's timeout. Storing comes after.
 */
async function validateAndPlan(
  tool: AnyTool,
  rawArgs: unknown,
  ctx: Required<Pick<ExecutorContext, "userId" | "chatId" | "now">>,
): Promise<
  | Exclude<ToolCallOutcome, { kind: "proposal" }>
  | {
      kind: "planned";
      write: WriteTool;
      args: unknown;
      planned: Awaited<ReturnType<WriteTool["plan"]>>;
    }
> {
  // A tool without parameters may arrive with no input at all.
  const parsed = tool.args.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return errorOutcome(
      tool.name,
      "rejected",
      "invalid_arguments",
      `Invalid arguments for ${tool.name}.`,
      toIssues(parsed.error),
    );
  }
  const timeout = tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (tool.access === "read") {
    const raw = await withTimeout(() => tool.execute(parsed.data, ctx), timeout);
    const checked = tool.result.safeParse(raw);
    if (!checked.success) throw new Error(`${tool.name} produced a result outside its schema`);
    return { kind: "result", tool: tool.name, data: checked.data };
  }
  const existing = await existingEffect(tool, parsed.data, ctx);
  if (existing) return { kind: "existing", tool: tool.name, data: existing };
  // The timeout covers plan() only; storing starts only after a timely plan.
  const planned = await withTimeout(async () => await tool.plan(parsed.data, ctx), timeout);
  return { kind: "planned", write: tool, args: parsed.data, planned };
}

async function run(
  tool: AnyTool,
  rawArgs: unknown,
  ctx: Required<Pick<ExecutorContext, "userId" | "chatId" | "now">>,
  ctxIn: ExecutorContext,
  startedAt: number,
): Promise<ToolCallOutcome> {
  const step = await validateAndPlan(tool, rawArgs, ctx);
  if (step.kind !== "planned") return step;
  const { write, args, planned } = step;
  const action = await storeProposal(write, args, planned, ctx, {
    toolCallId: ctxIn.toolCallId,
    promptVersion: ctxIn.promptVersion,
    model: ctxIn.model,
    profile: ctxIn.profile,
    startedAt,
  });
  return { kind: "proposal", tool: tool.name, action };
}

/**
 * What the audit keeps of an outcome. A write answered from an existing record (a repeat
 * return) wrote nothing and must not read like an executed write: it says so (api.md).
 */
function auditResult(outcome: Exclude<ToolCallOutcome, { kind: "proposal" }>): unknown {
  if (outcome.kind === "error") return { code: outcome.code, issues: outcome.issues };
  if (outcome.kind === "existing")
    return { written: false, outcome: "existing_request", existing: outcome.data };
  return outcome.data;
}

/**
 * What a tool's thrown error becomes: the tool's refusal (its code), a timeout, or, for anything
 * else, a technical error that is logged (its detail never reaches the model or the customer).
 */
function thrownOutcome(toolName: string, err: unknown, what: string) {
  if (err instanceof ToolBusinessError)
    return errorOutcome(toolName, "business_error", err.code, err.message);
  if (err instanceof ToolTimeout)
    return errorOutcome(toolName, "timeout", "timeout", `${toolName} did not answer in time.`);
  log().error({ err: errorFields(err), tool: toolName }, what);
  return errorOutcome(
    toolName,
    "technical_error",
    "internal_error",
    `${toolName} failed because of a technical problem.`,
  );
}

/**
 * Runs one model tool call. Never throws for anything the model or a tool did; the outcome says
 * what happened and modelView() turns it into what the model may see.
 */
export async function executeToolCall(
  name: string,
  rawArgs: unknown,
  ctxIn: ExecutorContext,
  registry: ToolRegistry = toolRegistry,
): Promise<ToolCallOutcome> {
  const startedAt = performance.now();
  // Model output: `\u0000` in its JSON parses to a NUL, which must reach neither the tool, the
  // payload hash nor storage (lib/text/nul.ts).
  rawArgs = withoutNul(rawArgs);
  const ctx = {
    userId: ctxIn.userId,
    chatId: ctxIn.chatId,
    now: ctxIn.now ?? new Date(),
    onOrderRead: ctxIn.onOrderRead,
  };
  const tool = getTool(name, registry);
  let outcome: ToolCallOutcome;
  if (!tool) {
    outcome = errorOutcome(name, "rejected", "unknown_tool", `There is no tool named "${name}".`);
  } else {
    try {
      outcome = await run(tool, rawArgs, ctx, ctxIn, startedAt);
    } catch (err) {
      outcome = thrownOutcome(tool.name, err, "tool failed");
    }
  }
  // A proposal was audited (confirmation_required) atomically with storing the action.
  if (outcome.kind !== "proposal") {
    await recordAudit({
      at: ctx.now,
      tool: name,
      access: tool?.access ?? null,
      status: outcome.kind === "error" ? outcome.status : "success",
      errorCode: outcome.kind === "error" ? outcome.code : null,
      userId: ctx.userId,
      chatId: ctx.chatId,
      toolCallId: ctxIn.toolCallId,
      durationMs: performance.now() - startedAt,
      arguments: rawArgs,
      result: auditResult(outcome),
      promptVersion: ctxIn.promptVersion,
      model: ctxIn.model,
      profile: ctxIn.profile,
    });
  }
  // Onto the AI SDK's span of this tool call: what our side made of it (no arguments, no result).
  annotateActiveSpan({
    "returns_desk.tool.name": name.slice(0, 100),
    "returns_desk.tool.status":
      outcome.kind === "error"
        ? outcome.status
        : outcome.kind === "proposal"
          ? "confirmation_required"
          : "success",
    ...(outcome.kind === "error" ? { "returns_desk.tool.error_code": outcome.code } : {}),
    ...(outcome.kind === "proposal" ? { "returns_desk.action.id": outcome.action.id } : {}),
  });
  return outcome;
}

/** The audit's name for a plan the system made again (docs/api.md): not a tool the model calls. */
export const REPLAN_AUDIT_TOOL = "system:replan";

/**
 * Outcomes that say nothing about the order now (the store or a tool did not answer): a replan
 * that ends so stores nothing, and its caller tries again later.
 */
export function isTransient(outcome: ToolCallOutcome): boolean {
  return (
    outcome.kind === "error" &&
    (outcome.status === "timeout" ||
      outcome.status === "technical_error" ||
      outcome.code === "store_unreachable")
  );
}

/**
 * A stored action's call planned again by the system, not the model: the store refused the
 * confirmed write because the order changed there after the plan (lib/effects/replan.ts). The
 * model's own path: the allowlist, the tool's validation of the stored arguments, the business
 * key, plan() under the tool's timeout (the policy, on the order as the store has it now), and an
 * allowed plan stored as a pending action in the same chat for the same customer, under `id`
 * (derived from the refused action by the caller, so no second attempt can store a second one).
 *
 * Whatever it came to (a proposal, a refusal, an existing record) is stored in one transaction
 * with `within` (the caller's chat message) and one `system:replan` audit event naming the action
 * it replaces. A transient outcome (isTransient) stores nothing and is returned for a retry.
 */
export async function replanToolCall({
  name,
  rawArgs,
  ctx: ctxIn,
  id,
  replaces,
  cause,
  within,
  registry = toolRegistry,
}: {
  name: string;
  rawArgs: unknown;
  ctx: Required<Pick<ExecutorContext, "userId" | "chatId" | "now">>;
  id: string;
  /** The refused action. */
  replaces: string;
  /** Why it is planned again (the store's code). */
  cause: string;
  within: (outcome: ToolCallOutcome) => Promise<void>;
  registry?: ToolRegistry;
}): Promise<ToolCallOutcome> {
  const startedAt = performance.now();
  const ctx = { userId: ctxIn.userId, chatId: ctxIn.chatId, now: ctxIn.now };
  const tool = getTool(name, registry);
  let step: Awaited<ReturnType<typeof validateAndPlan>> | ToolCallOutcome;
  if (tool?.access !== "write") {
    step = errorOutcome(
      name,
      "rejected",
      "unknown_tool",
      `There is no write tool named "${name}".`,
    );
  } else {
    try {
      step = await validateAndPlan(tool, withoutNul(rawArgs), ctx);
    } catch (err) {
      step = thrownOutcome(tool.name, err, "tool failed in a replan");
    }
  }
  if (step.kind !== "planned" && isTransient(step)) return step;
  const planned = step;
  return await writeTransaction(async () => {
    let outcome: ToolCallOutcome;
    if (planned.kind === "planned") {
      // The proposal's own audit event (confirmation_required) is written by storeProposal.
      const action = await storeProposal(planned.write, planned.args, planned.planned, ctx, {
        id,
        startedAt,
      });
      outcome = { kind: "proposal", tool: name, action };
    } else {
      outcome = planned;
    }
    await recordAudit({
      at: ctx.now,
      tool: REPLAN_AUDIT_TOOL,
      access: "write",
      // `success` for a proposal too: its confirmation_required is the proposal's own event, and
      // the audit's counts must not see two proposals.
      status: outcome.kind === "error" ? outcome.status : "success",
      errorCode: outcome.kind === "error" ? outcome.code : null,
      userId: ctx.userId,
      chatId: ctx.chatId,
      // The fresh action when there is one (its life starts here), else the refused one.
      actionId: outcome.kind === "proposal" ? outcome.action.id : replaces,
      durationMs: performance.now() - startedAt,
      arguments: { tool: name, replaces, cause, proposedBy: "system" },
      result:
        outcome.kind === "proposal"
          ? { outcome: "proposal", actionId: outcome.action.id, replaces }
          : {
              outcome: outcome.kind === "error" ? "refused" : "existing",
              replaces,
              ...(auditResult(outcome) as object),
            },
    });
    await within(outcome);
    return outcome;
  });
}

/** What a dry run made of a call: like ToolCallOutcome, but a write is only planned. */
export type DryRunOutcome =
  | Exclude<ToolCallOutcome, { kind: "proposal" }>
  | { kind: "planned"; tool: string };

/**
 * A tool call that touches nothing, for a candidate profile in shadow: the same allowlist,
 * validation and timeouts as executeToolCall, and a read answers as it would, but a write
 * stops after the business key and plan() (the policy): no pending action, no audit event, no
 * outbox row, no provider request. Never throws.
 */
export async function dryRunToolCall(
  name: string,
  rawArgs: unknown,
  ctxIn: Pick<ExecutorContext, "userId" | "chatId" | "now">,
  registry: ToolRegistry = toolRegistry,
): Promise<DryRunOutcome> {
  rawArgs = withoutNul(rawArgs);
  const ctx = { userId: ctxIn.userId, chatId: ctxIn.chatId, now: ctxIn.now ?? new Date() };
  const tool = getTool(name, registry);
  if (!tool)
    return errorOutcome(name, "rejected", "unknown_tool", `There is no tool named "${name}".`);
  try {
    const step = await validateAndPlan(tool, rawArgs, ctx);
    if (step.kind !== "planned") return step;
    const { write, planned } = step;
    // The plan must be one the live path could store; nothing is stored.
    write.planSchema.parse(planned.plan);
    return { kind: "planned", tool: tool.name };
  } catch (err) {
    return thrownOutcome(tool.name, err, "tool failed in a dry run");
  }
}
