/**
 * What waits for staff, for their landing page: each kind of work with how much of it there is
 * and where it is done. Counted from the same lists the pages show (so the number and the page
 * agree), each bounded as that list is: `more` says the count stopped at the list's limit.
 */
import "server-only";
import { listApprovals } from "@/lib/actions/approve";
import { openAlerts } from "@/lib/alerts";
import { listHandoffQueue } from "@/lib/chat/handoff";
import { listQueue, QUEUE_LIMIT } from "@/lib/work-queue/queue";

export type WorkItem = {
  kind: "approvals" | "handoffs" | "needs_attention" | "failed" | "alerts";
  count: number;
  /** The count reached the list's limit: there may be more. */
  more: boolean;
  href: string;
};

const APPROVALS_LIMIT = 100;

export async function staffOverview(now = new Date()): Promise<WorkItem[]> {
  const [approvals, { handoffs }, needsAttention, failed, alerts] = await Promise.all([
    listApprovals({ now, limit: APPROVALS_LIMIT }),
    listHandoffQueue(),
    listQueue({ statuses: ["needs_attention"] }),
    listQueue({ statuses: ["failed"] }),
    openAlerts(),
  ]);
  return [
    {
      kind: "approvals",
      count: approvals.length,
      more: approvals.length >= APPROVALS_LIMIT,
      href: "/audit/approvals",
    },
    { kind: "handoffs", count: handoffs.length, more: false, href: "/audit/handoffs" },
    {
      kind: "needs_attention",
      count: needsAttention.length,
      more: needsAttention.length >= QUEUE_LIMIT,
      href: "/audit/queue",
    },
    {
      kind: "failed",
      count: failed.length,
      more: failed.length >= QUEUE_LIMIT,
      href: "/audit/queue",
    },
    // Alerts are acknowledged where they show: the banner on every staff page, this one too.
    { kind: "alerts", count: alerts.length, more: false, href: "/audit/metrics" },
  ];
}
