/**
 * What a tool is. Each tool lives in one folder under lib/tools/ and is listed once in registry.ts
 * (the allowlist). `access` is a required literal on purpose: there is no default that could let a
 * write tool run without the customer's confirmation.
 *
 * Read tools run at once inside the model loop (with a timeout). Write tools never run in the
 * loop: `plan()` reads current state and applies the policy, the server stores a pending action,
 * and only the customer's Confirm calls `commit()`, inside one SQLite transaction.
 * This module and the registry never import lib/actions: the action core depends on tools, not
 * the other way round.
 */
import type { z } from "zod";
import type { ActionStatus } from "@/db/constants";
import type { EffectRequest, MailKind } from "@/lib/effects/kinds";
import type { StoreOrder } from "@/lib/store/types";
import type { Locale } from "@/lib/text/language";
import type { ToolTriageCategory } from "./manifests";
import type { OfflineRead, OfflineWriteRows } from "./offline-types";
import type { ActionDescription, EffectState } from "./view";

/** Who is asking. Built by the server from the session, never from model output. */
export type ToolContext = {
  userId: string;
  chatId: string;
  /** "Now" for policy decisions; injectable so tests need no clock tricks. */
  now: Date;
  /**
   * Told of every order a tool read at the store, as the store answered (null: not the
   * customer's, or no such order), so a turn's profile can classify the orders it touched from
   * the tool's own read instead of asking the store again.
   */
  onOrderRead?: OrderReadHook;
};

export type OrderReadHook = (orderId: string, order: StoreOrder | null) => void;

/** The record a write compare-and-sets against at confirm. */
export type ActionTarget = { type: string; id: string; version: number };

/** Allowed: store a pending action with this plan, bound to this target version. */
export type Planned<Plan> = { plan: Plan; target: ActionTarget };

/** Passed to commit(): the stored, already-claimed action. */
export type CommitContext<Plan> = {
  actionId: string;
  userId: string;
  target: ActionTarget;
  plan: Plan;
  now: Date;
};

export type CommitOutcome<Result> =
  | {
      kind: "done";
      result: Result;
      /**
       * The external effects this write requires (a refund at the payment provider). The confirm
       * stores them in its own transaction, as outbox rows, and the relay carries them out after
       * the commit: nothing calls a provider inside a database transaction. At most one of each
       * kind; none when nothing was written now (createdNow: false).
       */
      effects?: EffectRequest[];
    }
  /** The target changed since the plan (version moved, policy no longer holds): nothing written. */
  | { kind: "stale"; code: string; message: string };

/**
 * Every write result says whether this call wrote it (true) or found it already there under the
 * tool's business key (false): the audit and the outcome note tell the two apart.
 */
export type WriteResult = { createdNow: boolean };

/** What staff triage (without a model) knows of one of this tool's actions. */
export type StaffStoryInput = {
  /** The stored arguments, or what the model sent when the policy refused (unvalidated). */
  args: Record<string, unknown>;
  plan: unknown;
  result: unknown;
  /** The action's status, or "refused" when the policy said no and nothing was proposed. */
  status: ActionStatus | "refused";
  errorCode: string | null;
};

/** The tool's own catalogue text: messages/<lang>.json under tools.<tool name>. */
export type Translate = ((key: string, values?: Record<string, string | number>) => string) & {
  has(key: string): boolean;
};

export type DescribeContext = {
  lang: Locale;
  t: Translate;
  /** Minor units in the chat's locale, e.g. "€249.00" / "249,00 €". */
  money(amount: number, currency: string): string;
  /** An ISO instant as a calendar day in the chat's locale. */
  date(iso: string): string;
};

type ToolBase<Name extends string, Args extends z.ZodType, Result extends z.ZodType> = {
  name: Name;
  /** Shown to the model. */
  description: string;
  /**
   * Its line in the assistant's help, in each language: the words after "I can" (its meta.ts's
   * `help`). The help is built from the registry, so a new tool appears there by being registered.
   */
  help: Record<Locale, string>;
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
  /** What it looks up for the offline model; absent, the offline model never calls it. */
  offline?: { reads: OfflineRead };
  /**
   * Offered to a visitor who is not signed in (the embedded chat without the store's token):
   * only a tool that reads nothing of any customer's. Absent, a visitor's model never sees it.
   */
  visitors?: true;
  execute(args: z.output<Args>, ctx: ToolContext): Promise<z.input<Result>> | z.input<Result>;
};

/**
 * A write tool owns everything about its action; the core (propose, confirm, cancel, expiry,
 * supersede, recovery), the chat and the card work only through these members.
 */
export type WriteTool<
  Name extends string = string,
  Args extends z.ZodType = z.ZodType,
  Result extends z.ZodType<WriteResult> = z.ZodType<WriteResult>,
  Plan extends z.ZodType = z.ZodType,
> = ToolBase<Name, Args, Result> & {
  access: "write";
  /**
   * The arguments the customer may change on the card before confirming (POST
   * /api/actions/{id}/revise). Never the target (the order): a revision changes how, not what.
   * Each must be a top-level key of `args` (tools check it with `satisfies`); anything else in a
   * revision is refused.
   */
  editable: readonly string[];
  /**
   * The mail the customer gets when a confirm did the write now (not when it already existed),
   * stored in the confirm's own transaction (lib/effects/mail); none when absent.
   */
  confirmationMail?: MailKind;
  /** Validates stored plans read back from the database. */
  planSchema: Plan;
  /**
   * The business key's answer: the effect this customer already has for these arguments (one
   * return per order, one cancellation per order), as a result with createdNow: false, or null.
   * Asked before plan() (no card for something already done) and again inside the confirm
   * transaction before commit() (an earlier action got there first).
   */
  findExisting(args: z.output<Args>, ctx: ToolContext): Promise<z.output<Result> | null>;
  /**
   * Dry run: reads only (no writes, no external requests) and applies the policy, which lives in
   * the tool's own module. Throws ToolBusinessError when not allowed.
   */
  plan(
    args: z.output<Args>,
    ctx: ToolContext,
  ): Promise<Planned<z.output<Plan>>> | Planned<z.output<Plan>>;
  /**
   * Runs inside the confirm transaction: every query made through db/queries is part of that
   * transaction (db/tx-context.ts), so it must await only the database. Compare-and-set on ctx.target.version; a unique
   * business key settles races (a duplicate answers with the winner, createdNow: false). It must
   * record ctx.actionId as the effect's operation id so findEffect() can find it. Anything outside
   * the database (a payment provider) it returns as `effects`, never calls. Throwing rolls
   * everything back.
   */
  commit(
    args: z.output<Args>,
    ctx: CommitContext<z.output<Plan>>,
  ): Promise<CommitOutcome<z.output<Result>>>;
  /** Crash recovery: the effect recorded under this operation id (the action id), or null. */
  findEffect(operationId: string): Promise<z.output<Result> | null>;
  /**
   * Staff triage without a model: the chat's category (its meta.ts's triage.category) when
   * this tool acted, and one sentence each on what happened and what staff should do next.
   */
  triage: {
    category: ToolTriageCategory;
    story(action: StaffStoryInput): { summary: string; next: string };
  };
  /**
   * Its rows for the offline model (its folder's offline.ts): phrases, arguments and replies, run
   * by the same rules as every other tool's (a request over several messages by the thread
   * rules). Absent: the offline model never proposes it.
   */
  offline?: OfflineWriteRows;
  /** The card, the confirmation message and the outcome note, in the chat's language. */
  describe(
    action: {
      args: z.output<Args>;
      plan: z.output<Plan>;
      result: z.output<Result> | null;
      /** The action's effects outside our database and how far each has got (none before it executed). */
      effects: readonly EffectState[];
    },
    ctx: DescribeContext,
  ): ActionDescription;
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
