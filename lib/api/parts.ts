/**
 * The chat's data parts, declared once. The server writes them into the stream and the stored
 * messages; the browser, the audit transcript, history and summary read them through these
 * schemas, and every type below is inferred from them. Client-safe (zod and types only).
 */
import type { UIMessage } from "ai";
import { z } from "zod";
import { ACTION_STATUSES, type MessageRole, OUTCOME_STATUSES } from "@/db/constants";
import { ActionViewSchema } from "@/lib/tools/view";

/** Every write result says whether this call wrote it; the rest is the tool's own shape. */
export const WriteResultSchema = z.looseObject({ createdNow: z.boolean() });

/**
 * `data-pending-action`: the PendingAction of api.md plus the stored result (once executed) and
 * `view`, the action as its tool describes it in the chat's language (the confirm card).
 */
export const PendingActionPartSchema = z.object({
  id: z.string().min(1),
  chatId: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  plan: z.record(z.string(), z.unknown()),
  result: WriteResultSchema.nullable(),
  status: z.enum(ACTION_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Whether staff must approve after Confirm; optional so cards stored before approvals existed still parse. */
  requiresApproval: z.boolean().optional(),
  revision: z.number().int().optional(),
  revisionOf: z.string().nullable().optional(),
  confirmedAt: z.string().nullable().optional(),
  rejectReason: z.string().nullable().optional(),
  /**
   * What the customer may change on the card (the tool's editable fields, with their choices),
   * while the action is pending and its chain has revisions left; null otherwise.
   */
  edit: z
    .object({
      fields: z.array(
        z.object({
          name: z.string(),
          label: z.string(),
          /** A choice (with the tool's own wording of each value), or free text. */
          options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
          value: z.string().nullable(),
          maxLength: z.number().int().nullable(),
        }),
      ),
    })
    .nullable()
    .optional(),
  view: ActionViewSchema,
});
export type PendingActionPart = z.infer<typeof PendingActionPartSchema>;

/** `data-action-outcome`: appended after a decision, so the UI (on reload) and the model know. */
export const ActionOutcomePartSchema = z.object({
  actionId: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  result: WriteResultSchema.nullish(),
});
export type ActionOutcome = z.infer<typeof ActionOutcomePartSchema>;

/** `data-staff`: the author of a staff reply (role `staff`), as the customer sees them. */
export const StaffPartSchema = z.object({ name: z.string() });
export type StaffPart = z.infer<typeof StaffPartSchema>;

export const HANDOFF_PART_STATUSES = ["waiting", "released"] as const;
/**
 * `data-handoff`: the app's note that the chat was handed to a person (`waiting`) or back to the
 * assistant (`released`); the customer's page follows the chat for staff replies in between.
 */
export const HandoffPartSchema = z.object({ status: z.enum(HANDOFF_PART_STATUSES) });
export type HandoffPart = z.infer<typeof HandoffPartSchema>;

/** Keyed by the part type without its `data-` prefix, as the AI SDK's dataPartSchemas are. */
export const DATA_PART_SCHEMAS = {
  "pending-action": PendingActionPartSchema,
  "action-outcome": ActionOutcomePartSchema,
  staff: StaffPartSchema,
  handoff: HandoffPartSchema,
} as const;

export type ChatDataParts = {
  [K in keyof typeof DATA_PART_SCHEMAS]: z.infer<(typeof DATA_PART_SCHEMAS)[K]>;
};

export type ChatUIMessage = UIMessage<never, ChatDataParts>;

/**
 * A message as stored and as GET /api/chats/{id} gives it: also role `staff`, a person's reply in
 * a handed-off chat (its `data-staff` part names them). The model sees it as an assistant message
 * behind an app note (lib/ai/history.ts).
 */
export type StoredChatMessage = Omit<ChatUIMessage, "role"> & { role: MessageRole };

/**
 * The few fields the server itself reads from a stored part (older rows may lack the rest, which
 * await withCurrentActions() replaces with the action's current state anyway).
 */
export const STORED_PART_KEYS = {
  "data-pending-action": z.looseObject({
    data: PendingActionPartSchema.pick({ id: true }).loose(),
  }),
  "data-action-outcome": z.looseObject({
    data: ActionOutcomePartSchema.pick({ actionId: true, status: true }).loose(),
  }),
  "data-staff": z.looseObject({ data: StaffPartSchema.loose() }),
  "data-handoff": z.looseObject({ data: HandoffPartSchema.loose() }),
} as const;
