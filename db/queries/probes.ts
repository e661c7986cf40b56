/** Turn profiles and probe sets (lib/chat/probes). */
import "server-only";
import { desc } from "drizzle-orm";
import { first, getDb } from "../index";
import { probeSets, turnProfiles } from "../schema";

export type ProbeSetRow = typeof probeSets.$inferSelect;
export type TurnProfileRow = typeof turnProfiles.$inferSelect;

export async function insertTurnProfile(row: typeof turnProfiles.$inferInsert): Promise<void> {
  await getDb().insert(turnProfiles).values(row);
}

/** The newest turn profiles, at most `limit`. */
export async function recentTurnProfiles({ limit }: { limit: number }): Promise<TurnProfileRow[]> {
  return getDb().select().from(turnProfiles).orderBy(desc(turnProfiles.at)).limit(limit);
}

export async function insertProbeSet(row: typeof probeSets.$inferInsert): Promise<void> {
  await getDb().insert(probeSets).values(row);
}

/** The newest probe sets, newest first. */
export async function latestProbeSets({ limit }: { limit: number }): Promise<ProbeSetRow[]> {
  return getDb().select().from(probeSets).orderBy(desc(probeSets.builtAt)).limit(limit);
}

export async function latestProbeSet(): Promise<ProbeSetRow | null> {
  return getDb().select().from(probeSets).orderBy(desc(probeSets.builtAt)).limit(1).then(first);
}
