/**
 * Comparing two trajectories of one turn: the live profile's and the candidate's. Pure, so the
 * rules are tested without a model: the tools must be the same in the same order, and each pair
 * of calls of the same tool must have deep-equal arguments; where they differ, the differing
 * fields are named (paths such as `reason` or `address.city`), never their values.
 */
import { isDeepStrictEqual } from "node:util";
import type { StepResult, ToolSet } from "ai";

/**
 * A call as the records keep it: the arguments cut to the keys the tool's schema declares, and
 * how many other keys the model invented (never their names: a name can be the customer's
 * address). See lib/tools/declared.ts.
 */
export type ToolCallTrace = { tool: string; args: unknown; unknownKeys: number };

/** Cuts a call's raw input to its declared arguments (lib/chat/turn-tools.ts, declaredInput). */
export type DeclaredInput = (
  tool: string,
  input: unknown,
) => { args: unknown; unknownKeys: number };

export type Trajectory = {
  calls: ToolCallTrace[];
  /** A write the customer would have been asked to confirm (live: a card; candidate: a plan). */
  proposedWrite: boolean;
  /** Tool calls refused by a tool's policy (business errors). */
  refusals: number;
  /** The model's own text, in characters (the app's sentences are not the model's). */
  answerChars: number;
  latencyMs: number;
  tokens: number | null;
  fingerprint: string;
};

export type ArgDiff = { call: number; tool: string; fields: string[] };

export type TrajectoryComparison = {
  toolsAgree: boolean;
  argsAgree: boolean;
  argDiffs: ArgDiff[];
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The paths at which two values differ; a whole array is one field. */
export function differingFields(a: unknown, b: unknown, prefix = ""): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (!isPlainObject(a) || !isPlainObject(b)) return [prefix || "(arguments)"];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap((k) => differingFields(a[k], b[k], prefix ? `${prefix}.${k}` : k));
}

export function compareTrajectories(live: Trajectory, candidate: Trajectory): TrajectoryComparison {
  const names = (t: Trajectory) => t.calls.map((c) => c.tool);
  const toolsAgree = isDeepStrictEqual(names(live), names(candidate));
  const argDiffs: ArgDiff[] = [];
  const pairs = Math.min(live.calls.length, candidate.calls.length);
  for (let i = 0; i < pairs; i++) {
    const l = live.calls[i]!;
    const c = candidate.calls[i]!;
    // Another tool at this place is a tool disagreement already, not an argument one.
    if (l.tool !== c.tool) continue;
    const fields = differingFields(l.args ?? {}, c.args ?? {});
    // Invented keys differ only in number: which ones is never recorded.
    if (l.unknownKeys !== c.unknownKeys) fields.push("(unknown keys)");
    if (fields.length > 0) argDiffs.push({ call: i, tool: l.tool, fields });
  }
  return { toolsAgree, argsAgree: toolsAgree && argDiffs.length === 0, argDiffs };
}

/** What the AI SDK's steps say about a trajectory's calls, refusals and text. */
export function traceSteps(
  steps: readonly StepResult<ToolSet>[],
  declared: DeclaredInput,
): {
  calls: ToolCallTrace[];
  refusals: number;
  answerChars: number;
} {
  const refused = (output: unknown) =>
    isPlainObject(output) &&
    output.ok === false &&
    isPlainObject(output.error) &&
    output.error.status === "business_error";
  return {
    calls: steps.flatMap((s) =>
      s.toolCalls.map((c) => ({ tool: c.toolName, ...declared(c.toolName, c.input) })),
    ),
    refusals: steps.flatMap((s) => s.toolResults).filter((r) => refused(r.output)).length,
    answerChars: steps.reduce((n, s) => n + s.text.length, 0),
  };
}
