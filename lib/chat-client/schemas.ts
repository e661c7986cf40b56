/**
 * What the browser accepts from the chat API. The server is ours, but the pending-action data
 * travels through a stream the model's turn produced, so the card renders only what parses here.
 */
// First: zod must be configured before any schema below (or in lib/api/parts.ts) is built.
import "./zod-jitless";
import type { UIMessage } from "ai";
import { z } from "zod";
import {
  type ActionOutcome,
  ActionOutcomePartSchema,
  type ChatDataParts,
  type PendingActionPart,
  PendingActionPartSchema,
  WriteResultSchema,
} from "@/lib/api/parts";

export { ACTION_STATUSES, type ActionStatus } from "@/db/constants";

/** The data parts are declared once, in lib/api/parts.ts; the browser parses the same schemas. */
export const PendingActionSchema = PendingActionPartSchema;
export type PendingAction = PendingActionPart;

/** The write's result as the confirm response and the outcome message carry it. */
export const ActionResultSchema = WriteResultSchema;
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const ActionOutcomeSchema = ActionOutcomePartSchema;
export type ActionOutcomeData = ActionOutcome;

export const ChatSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  title: z.string().nullable().optional(),
});
export type ChatSummary = z.infer<typeof ChatSummarySchema>;

export type ChatMessage = UIMessage<unknown, ChatDataParts>;

/**
 * Messages are rendered part by part and every part the UI acts on is parsed again where it is
 * used, so here only the envelope is checked.
 */
const MessageEnvelope = z.looseObject({
  id: z.string(),
  // `staff`: a person's reply; shown as an answer whose data-staff part names them.
  role: z.enum(["user", "assistant", "system", "staff"]),
  parts: z.array(z.looseObject({ type: z.string() })),
});

/** A chat a person has taken over (GET /api/chats/{id}); null when the assistant answers. */
export const HandoffSchema = z.object({
  status: z.enum(["waiting", "active"]),
  since: z.string(),
  staff: z.object({ name: z.string() }).optional(),
});
export type Handoff = z.infer<typeof HandoffSchema>;

export const ChatSnapshotSchema = z.object({
  chat: ChatSummarySchema.extend({ handoff: HandoffSchema.nullable().optional() }),
  messages: z.array(MessageEnvelope),
  pendingAction: PendingActionSchema.nullable(),
});
export type ChatSnapshot = {
  chat: ChatSummary & { handoff?: Handoff | null };
  messages: ChatMessage[];
  pendingAction: PendingAction | null;
};

export const ChatListSchema = z.object({ chats: z.array(ChatSummarySchema) });
export const CreatedChatSchema = z.object({ chat: ChatSummarySchema });

export const ConfirmResponseSchema = z.object({
  action: PendingActionSchema,
  /** Null when the action now waits for staff approval: nothing was executed. */
  result: ActionResultSchema.nullable(),
});
/** POST /api/actions/{id}/revise: the new pending action (the edited proposal). */
export const ReviseResponseSchema = z.object({ pendingAction: PendingActionSchema });
export const CancelResponseSchema = z.object({ action: PendingActionSchema });

/**
 * GET /api/chats/{id} (or the page's server-side read of the same view), checked. The message
 * envelope is validated here; the parts the UI acts on are parsed again where they are rendered.
 */
export function parseChatSnapshot(json: unknown): ChatSnapshot | null {
  const r = ChatSnapshotSchema.safeParse(json);
  if (!r.success) return null;
  // useChat knows three roles; a staff reply travels as an answer marked by its data-staff part.
  const messages = r.data.messages.map((m) =>
    m.role === "staff" ? { ...m, role: "assistant" as const } : m,
  );
  return { ...r.data, messages: messages as ChatMessage[] };
}
