/**
 * Guest accounts do not pile up: one idle longer than GUEST_IDLE_DAYS (no session, chat or
 * verification since) is deleted with its sessions, chats, pending actions and verifications.
 * What a guest wrote at the store stays (db/queries/guests.ts deleteGuest), and so do its audit
 * events, which never held its e-mail but masked. Every instance prunes hourly (a deletion is
 * conditional, so two instances delete a guest once); `npm run guests -- prune` does it now.
 */
import "server-only";
import { GUEST_CHECKOUT_USER_ID } from "@/db/constants";
import { deleteGuest, idleGuests } from "@/db/queries/guests";
import { writeTransaction } from "@/db/queries/tx";
import { recordAudit } from "../audit-log/record";
import { env } from "../env";
import { errorFields, log } from "../log";

export const GUEST_PRUNE_AUDIT_TOOL = "guest:prune";
const PRUNE_EVERY_MS = 3_600_000;

export async function pruneGuests({
  now = new Date(),
  idleDays = env().GUEST_IDLE_DAYS,
}: {
  now?: Date;
  idleDays?: number;
} = {}): Promise<{ deleted: number }> {
  const idleBefore = new Date(now.getTime() - idleDays * 86_400_000);
  // Each deleted guest's id and name: its audit events keep the id, and this event keeps what
  // staff read for it ("Verified guest (order 5502, l•••@example.org)": never the address).
  const gone: { id: string; name: string }[] = [];
  for (const guest of await idleGuests({ idleBefore })) {
    // One guest per transaction: its records move and it goes, or neither.
    if (
      await writeTransaction(() => deleteGuest({ id: guest.id, ownerId: GUEST_CHECKOUT_USER_ID }))
    )
      gone.push(guest);
  }
  if (gone.length > 0)
    await recordAudit({
      tool: GUEST_PRUNE_AUDIT_TOOL,
      status: "success",
      at: now,
      arguments: { idleDays },
      result: { deleted: gone.length, guests: gone },
    });
  return { deleted: gone.length };
}

const g = globalThis as unknown as { __returnsDeskGuestPrune?: NodeJS.Timeout };

export function startGuestPrune(): void {
  if (g.__returnsDeskGuestPrune) clearInterval(g.__returnsDeskGuestPrune);
  g.__returnsDeskGuestPrune = setInterval(async () => {
    try {
      await pruneGuests();
    } catch (err) {
      log().error({ err: errorFields(err) }, "guest prune failed");
    }
  }, PRUNE_EVERY_MS);
  g.__returnsDeskGuestPrune.unref();
}
