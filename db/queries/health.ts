import "server-only";
import { getDb } from "../index";

/** A cheap round trip that proves the database answers. */
export function pingDatabase(): boolean {
  const row = getDb().$client.prepare("select 1 as ok").get() as { ok: number } | undefined;
  return row?.ok === 1;
}
