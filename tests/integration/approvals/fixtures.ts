import { type Core, newChat, propose, setupCore } from "../action-core/fixtures";

/** The approval suites' action core: refunds above 500.00 wait for staff, at most 48 hours. */
export const setupApprovalCore = () =>
  setupCore({ APPROVAL_TTL_HOURS: "48", APPROVAL_THRESHOLD_MINOR: "50000" });

/** A proposal that needs approval: the return of order 2890, whose refund is above the threshold. */
export async function proposeBike(core: Core, now?: Date) {
  return await propose(
    core.anna,
    await newChat(core.db, core.anna, now),
    { orderId: "2890", reason: "damaged" },
    { now },
  );
}
