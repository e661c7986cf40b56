/**
 * What a tool is. Each tool lives in one file under lib/tools/ and is listed once in registry.ts
 * (the allowlist). `access` is a required literal on purpose: there is no default that could let a
 * write tool run without the customer's confirmation.
 *
 * Read tools run at once inside the model loop (with a timeout). Write tools never run in the
 * loop: `plan()` reads current state and applies the policy, the server stores a pending action,
 * and only the customer's Confirm calls `commit()`, inside one SQLite transaction.
 */
import type { z } from "zod";

export type ToolAccess = "read" | "write";

/** Who is asking. Built by the server from the session, never from model output. */
export type ToolContext = {
  userId: string;
  chatId: string;
  /** "Now" for policy decisions; injectable so tests need no clock tricks. */
  now: Date;
};

/** The record a write compare-and-sets against at confirm. */
export type ActionTarget = { type: string; id: string; version: number };

export type PlanOutcome<Plan, Result> =
  /** Allowed: store a pending action with this plan, bound to this target version. */
  | { kind: "plan"; plan: Plan; target: ActionTarget }
  /** Nothing would change (e.g. the order already has a return): answer with what exists. */
  | { kind: "existing"; result: Result };

/** Passed to commit(): the stored, already-claimed action. */
export type CommitContext<Plan> = {
  actionId: string;
  userId: string;
  target: ActionTarget;
  plan: Plan;
  now: Date;
};

export type CommitOutcome<Result> =
  | { kind: "done"; result: Result }
  /** The target changed since the plan (version moved, policy no longer holds): nothing written. */
  | { kind: "stale"; code: string; message: string };

type ToolBase<Name extends string, Args extends z.ZodType, Result extends z.ZodType> = {
  name: Name;
  /** Shown to the model. */
  description: string;
  /** A strict object schema (unknown keys rejected). The same schema validates at plan and commit. */
  args: Args;
  /** Checked on every result before it reaches the model or the database. */
  result: Result;
  /** Default 2000 ms (DEFAULT_TOOL_TIMEOUT_MS). */
  timeoutMs?: number;
};

// Methods (not function-valued properties) so a concrete tool is assignable to the erased
// registry type below: TypeScript checks method parameters bivariantly.
export type ReadTool<
  Name extends string = string,
  Args extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
> = ToolBase<Name, Args, Result> & {
  access: "read";
  execute(args: z.output<Args>, ctx: ToolContext): Promise<z.input<Result>> | z.input<Result>;
};

export type WriteTool<
  Name extends string = string,
  Args extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
  Plan extends z.ZodType = z.ZodType,
> = ToolBase<Name, Args, Result> & {
  access: "write";
  /** Validates stored plans read back from the database. */
  planSchema: Plan;
  /** Reads only (no writes, no external requests). Throws ToolBusinessError when not allowed. */
  plan(
    args: z.output<Args>,
    ctx: ToolContext,
  ):
    | Promise<PlanOutcome<z.output<Plan>, z.output<Result>>>
    | PlanOutcome<z.output<Plan>, z.output<Result>>;
  /**
   * Runs inside the confirm transaction, synchronously (better-sqlite3): every query made through
   * db/queries is part of that transaction. Throwing rolls everything back.
   */
  commit(args: z.output<Args>, ctx: CommitContext<z.output<Plan>>): CommitOutcome<z.output<Result>>;
};

export type AnyTool = ReadTool | WriteTool;

export const DEFAULT_TOOL_TIMEOUT_MS = 2000;

/**
 * An expected rule failure ("not your order", "not delivered"): the model gets the code and the
 * message and explains it to the customer. Anything else thrown by a tool is a technical error
 * whose details never reach the model.
 */
export class ToolBusinessError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ToolBusinessError";
    this.code = code;
  }
}
