/**
 * The shadow comparisons of a candidate profile with the live one: one row per repeated turn,
 * written after the live turn was saved, and the staff summary over them.
 */
import "server-only";
import { type AnyColumn, and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { getDb, one } from "../index";
import { candidateComparisons, candidateRollouts } from "../schema";

export type NewCandidateComparison = typeof candidateComparisons.$inferInsert;
export type CandidateComparisonRow = typeof candidateComparisons.$inferSelect;

export async function insertCandidateComparison(row: NewCandidateComparison): Promise<void> {
  await getDb().insert(candidateComparisons).values(row);
}

const t = candidateComparisons;
const scope = (candidateFingerprint: string | null): SQL | undefined =>
  candidateFingerprint === null ? undefined : eq(t.candidateFingerprint, candidateFingerprint);
/** A boolean column counted: SQLite stores 0/1, PostgreSQL a boolean; `case when` reads both. */
const countTrue = (col: SQL | AnyColumn) =>
  sql<string | number>`coalesce(sum(case when ${col} then 1 else 0 end), 0)`;
const total = (col: AnyColumn) => sql<string | number>`coalesce(sum(${col}), 0)`;
const answered = sql`${t.candidateError} is null`;

export type CandidateTotals = {
  turns: number;
  toolsAgree: number;
  argsAgree: number;
  liveWrites: number;
  candidateWrites: number;
  candidateOnlyWrites: number;
  liveOnlyWrites: number;
  liveRefusals: number;
  candidateRefusals: number;
  candidateErrors: number;
  /** Over the turns the candidate answered, so a failed call's short time does not flatter it. */
  answeredTurns: number;
  liveLatencyMs: number;
  candidateLatencyMs: number;
  liveTokens: number;
  candidateTokens: number;
};

/** Sums over every comparison of this candidate fingerprint (null: of every candidate). */
export async function candidateTotals(
  candidateFingerprint: string | null,
): Promise<CandidateTotals> {
  const whenAnswered = (col: AnyColumn) =>
    sql<string | number>`coalesce(sum(case when ${answered} then ${col} else 0 end), 0)`;
  const row = one(
    await getDb()
      .select({
        turns: sql<string | number>`count(*)`,
        toolsAgree: countTrue(t.toolsAgree),
        argsAgree: countTrue(t.argsAgree),
        liveWrites: countTrue(t.liveWrite),
        candidateWrites: countTrue(t.candidateWrite),
        candidateOnlyWrites: countTrue(sql`${t.candidateWrite} and not ${t.liveWrite}`),
        liveOnlyWrites: countTrue(sql`${t.liveWrite} and not ${t.candidateWrite}`),
        liveRefusals: total(t.liveRefusals),
        candidateRefusals: total(t.candidateRefusals),
        candidateErrors: countTrue(sql`${t.candidateError} is not null`),
        answeredTurns: countTrue(answered),
        liveLatencyMs: whenAnswered(t.liveLatencyMs),
        candidateLatencyMs: whenAnswered(t.candidateLatencyMs),
        liveTokens: whenAnswered(t.liveTokens),
        candidateTokens: whenAnswered(t.candidateTokens),
      })
      .from(t)
      .where(scope(candidateFingerprint)),
  );
  // PostgreSQL answers sums as numeric strings.
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as CandidateTotals;
}

/** The newest comparisons first. */
export async function recentCandidateComparisons({
  candidateFingerprint,
  limit,
}: {
  candidateFingerprint: string | null;
  limit: number;
}): Promise<CandidateComparisonRow[]> {
  return getDb()
    .select()
    .from(t)
    .where(scope(candidateFingerprint))
    .orderBy(desc(t.at), desc(t.id))
    .limit(limit);
}

/** Both latencies of the newest comparisons the candidate answered (for medians). */
export async function answeredLatencies({
  candidateFingerprint,
  limit,
}: {
  candidateFingerprint: string | null;
  limit: number;
}): Promise<{ live: number; candidate: number }[]> {
  return getDb()
    .select({ live: t.liveLatencyMs, candidate: t.candidateLatencyMs })
    .from(t)
    .where(scope(candidateFingerprint) ? and(scope(candidateFingerprint), answered) : answered)
    .orderBy(desc(t.at))
    .limit(limit);
}

/** A chat's comparisons, oldest first (tests read them back). */
export async function listCandidateComparisonsForChat(
  chatId: string,
): Promise<CandidateComparisonRow[]> {
  return getDb().select().from(t).where(eq(t.chatId, chatId)).orderBy(t.at, t.id);
}

// ---------------------------------------------------------------- the canary's rollout

export type CandidateRolloutRow = typeof candidateRollouts.$inferSelect;

/** The candidate's rollout row, created at `since` if it has none yet. */
export async function ensureCandidateRollout({
  fingerprint,
  since,
}: {
  fingerprint: string;
  since: Date;
}): Promise<CandidateRolloutRow> {
  await getDb().insert(candidateRollouts).values({ fingerprint, since }).onConflictDoNothing();
  return one(
    await getDb()
      .select()
      .from(candidateRollouts)
      .where(eq(candidateRollouts.fingerprint, fingerprint)),
  );
}

export async function getCandidateRollout(
  fingerprint: string,
): Promise<CandidateRolloutRow | null> {
  const rows = await getDb()
    .select()
    .from(candidateRollouts)
    .where(eq(candidateRollouts.fingerprint, fingerprint));
  return rows[0] ?? null;
}

/**
 * Rolls the candidate back unless it already was: a conditional update, so of several instances
 * (or staff and the automatic judge) exactly one does it. The updated row, or null.
 */
export async function markCandidateRolledBack({
  fingerprint,
  at,
  reason,
  by,
}: {
  fingerprint: string;
  at: Date;
  reason: string;
  by: string | null;
}): Promise<CandidateRolloutRow | null> {
  const rows = await getDb()
    .update(candidateRollouts)
    .set({ rolledBackAt: at, rollbackReason: reason, rolledBackBy: by })
    .where(
      and(eq(candidateRollouts.fingerprint, fingerprint), isNull(candidateRollouts.rolledBackAt)),
    )
    .returning();
  return rows[0] ?? null;
}
