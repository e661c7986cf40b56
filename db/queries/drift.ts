/**
 * The per-turn signals of the drift corridor and the canary's judgement, read from model_calls
 * (one row per turn, written with the turn) and the status of the write a turn proposed.
 */
import "server-only";
import { and, asc, eq, gte, lt } from "drizzle-orm";
import { getDb } from "../index";
import { modelCalls, pendingActions } from "../schema";

export type TurnSignalRow = {
  at: Date;
  fingerprint: string | null;
  canary: boolean;
  error: string | null;
  fallback: string | null;
  latencyMs: number;
  inputTokens: number | null;
  payloadBytes: number | null;
  toolCalls: string[];
  refusals: number;
  /** The status of the write the turn proposed, if it proposed one. */
  actionStatus: string | null;
};

/** Every turn started in [from, to), oldest first. */
export async function turnSignals({
  from,
  to,
}: {
  from: Date;
  to: Date;
}): Promise<TurnSignalRow[]> {
  const m = modelCalls;
  return getDb()
    .select({
      at: m.at,
      fingerprint: m.fingerprint,
      canary: m.canary,
      error: m.error,
      fallback: m.fallback,
      latencyMs: m.latencyMs,
      inputTokens: m.inputTokens,
      payloadBytes: m.payloadBytes,
      toolCalls: m.toolCalls,
      refusals: m.refusals,
      actionStatus: pendingActions.status,
    })
    .from(m)
    .leftJoin(pendingActions, eq(pendingActions.id, m.actionId))
    .where(and(eq(m.kind, "turn"), gte(m.at, from), lt(m.at, to)))
    .orderBy(asc(m.at), asc(m.id));
}

/** A chat's first turn: which profile served it and whether as a canary (null: no turn yet). */
export async function firstTurnOfChat(
  chatId: string,
): Promise<{ fingerprint: string | null; canary: boolean } | null> {
  const rows = await getDb()
    .select({ fingerprint: modelCalls.fingerprint, canary: modelCalls.canary })
    .from(modelCalls)
    .where(and(eq(modelCalls.chatId, chatId), eq(modelCalls.kind, "turn")))
    .orderBy(asc(modelCalls.at), asc(modelCalls.id))
    .limit(1);
  return rows[0] ?? null;
}
