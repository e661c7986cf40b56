/** The action core's public API (see /tmp/notes/core-api.md). */
export { cancelAction } from "./cancel";
export { type ConfirmResult, confirmAction } from "./confirm";
export { type PendingActionDto, type PendingActionStatus, toPendingActionDto } from "./dto";
export {
  expireDueActions,
  getActionForUser,
  getPendingActionForChat,
  recoverInterruptedActions,
  supersedePendingForUser,
  withdrawProposal,
} from "./lifecycle";
export { type ProposeOutcome, proposeAction } from "./propose";
