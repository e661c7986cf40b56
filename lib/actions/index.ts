/** The action core's public API: propose (via the executor), confirm, cancel, expiry, supersede, recovery. */
export { cancelAction } from "./cancel";
export { type ConfirmResult, confirmAction } from "./confirm";
export { type PendingActionDto, type PendingActionStatus, toPendingActionDto } from "./dto";
export {
  expireDueActions,
  getActionForUser,
  getActionsForUser,
  getPendingActionForChat,
  recoverInterruptedActions,
  supersedePendingForUser,
  supersedePendingInChat,
  withdrawProposal,
} from "./lifecycle";
