/**
 * Staff decisions on actions that wait for approval, with their note in the customer's
 * chat: executed (the tool's own note), declined with the staff member's reason, or expired when
 * nobody decided within APPROVAL_TTL_HOURS (the sweep tells us, lib/startup.ts).
 */
import "server-only";
import type { Locale as Lang } from "@/db/constants";
import { usersByIds } from "@/db/queries/users";
import type { PendingActionDto } from "@/lib/actions";
import { approveAction, listApprovals, rejectAction } from "@/lib/actions/approve";
import { onApprovalExpired } from "@/lib/actions/lifecycle";
import type { PendingActionPart } from "@/lib/api/parts";
import { errorFields, log } from "@/lib/log";
import { presentAction, storedChatLanguage } from "./present";
import { recordOutcome } from "./service";

async function noteQuietly(write: () => Promise<unknown>): Promise<void> {
  // The decision is committed; a lost note must not turn it into an error for staff.
  try {
    await write();
  } catch (err) {
    log().error({ err: errorFields(err) }, "could not note the approval decision in the chat");
  }
}

export async function approve({ actionId, staffId }: { actionId: string; staffId: string }) {
  const out = await approveAction({ actionId, staffId });
  await noteQuietly(() =>
    recordOutcome({
      action: out.action,
      outcome: { actionId, status: "executed", result: out.result },
    }),
  );
  return {
    action: presentAction(out.action, "en", out.effects),
    result: out.result,
  };
}

export async function reject({
  actionId,
  staffId,
  reason,
}: {
  actionId: string;
  staffId: string;
  reason: string;
}) {
  const { action } = await rejectAction({ actionId, staffId, reason });
  await noteQuietly(() => recordOutcome({ action, outcome: { actionId, status: "rejected" } }));
  return { action: presentAction(action, "en") };
}

export type ApprovalItem = {
  action: PendingActionPart;
  customer: { id: string; name: string; email: string };
  confirmedAt: string;
};

/** The staff queue, oldest confirm first; cards in `lang` (the staff page's language). */
export async function approvalQueue(lang: Lang = "en"): Promise<ApprovalItem[]> {
  const items = await listApprovals();
  const users = await usersByIds([...new Set(items.map((i) => i.userId))]);
  return items.map((i) => ({
    action: presentAction(i.action, lang),
    customer: { id: i.userId, ...(users.get(i.userId) ?? { name: "", email: "" }) },
    confirmedAt: i.confirmedAt.toISOString(),
  }));
}

/** Start-up: the sweep's expiries of awaited actions become a note in the customer's chat. */
export function noteApprovalExpiries(): void {
  onApprovalExpired(async (action: PendingActionDto) => {
    await noteQuietly(async () => {
      await storedChatLanguage(action.chatId);
      await recordOutcome({ action, outcome: { actionId: action.id, status: "expired" } });
    });
  });
}
