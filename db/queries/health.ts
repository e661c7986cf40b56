import "server-only";
import { execute, sql } from "../index";

/** A cheap round trip that proves the database answers. */
export async function pingDatabase(): Promise<boolean> {
  await execute(sql`select 1`);
  return true;
}
