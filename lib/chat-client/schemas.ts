/**
 * What the browser accepts from the chat API. The server is ours, but the pending-action data
 * travels through a stream the model's turn produced, so the card renders only what parses here;
 * fields it does not show stay loose so a richer server response never breaks the page.
 */
import type { UIMessage } from "ai";
import { z } from "zod";
import { ACTION_STATUSES } from "@/db/constants";

export { ACTION_STATUSES, type ActionStatus } from "@/db/constants";

const Money = z.object({ amount: z.number().int(), currency: z.string().length(3) });

/** Prices may come as minor units next to a currency or as a money object; both render. */
const PlanItem = z.looseObject({
  name: z.string(),
  quantity: z.number().int().positive(),
  unitPrice: z.union([z.number().int(), Money]).optional(),
  unitPriceMinor: z.number().int().optional(),
});

export const PlanSchema = z.looseObject({
  effect: z.string(),
  order: z
    .looseObject({
      id: z.string(),
      status: z.string().optional(),
      deliveredAt: z.string().nullish(),
      items: z.array(PlanItem).default([]),
      total: z.union([Money, z.number().int()]).optional(),
    })
    .optional(),
  windowEndsAt: z.string().nullish(),
  refund: z
    .looseObject({ amount: z.number().int(), currency: z.string(), destination: z.string() })
    .nullish(),
});
export type Plan = z.infer<typeof PlanSchema>;

export const PendingActionSchema = z.object({
  id: z.string().min(1),
  chatId: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  plan: PlanSchema,
  status: z.enum(ACTION_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable().optional(),
});
export type PendingAction = z.infer<typeof PendingActionSchema>;

/** The write's result as the confirm response and the outcome message carry it. */
export const ActionResultSchema = z.looseObject({
  requestId: z.string(),
  orderId: z.string().optional(),
  createdNow: z.boolean(),
});
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const ActionOutcomeSchema = z.object({
  actionId: z.string(),
  status: z.enum(ACTION_STATUSES),
  result: ActionResultSchema.nullish(),
});
export type ActionOutcomeData = z.infer<typeof ActionOutcomeSchema>;

export const ChatSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  title: z.string().nullable().optional(),
});
export type ChatSummary = z.infer<typeof ChatSummarySchema>;

/** Data parts the server puts into assistant messages (data-pending-action, data-action-outcome; lib/chat/types.ts). */
export type ChatDataParts = {
  "pending-action": PendingAction;
  "action-outcome": ActionOutcomeData;
};
export type ChatMessage = UIMessage<unknown, ChatDataParts>;

/**
 * Messages are rendered part by part and every part the UI acts on is parsed again where it is
 * used, so here only the envelope is checked.
 */
const MessageEnvelope = z.looseObject({
  id: z.string(),
  role: z.enum(["user", "assistant", "system"]),
  parts: z.array(z.looseObject({ type: z.string() })),
});

export const ChatSnapshotSchema = z.object({
  chat: ChatSummarySchema,
  messages: z.array(MessageEnvelope),
  pendingAction: PendingActionSchema.nullable(),
});
export type ChatSnapshot = {
  chat: ChatSummary;
  messages: ChatMessage[];
  pendingAction: PendingAction | null;
};

export const ChatListSchema = z.object({ chats: z.array(ChatSummarySchema) });
export const CreatedChatSchema = z.object({ chat: ChatSummarySchema });

export const ConfirmResponseSchema = z.object({
  action: PendingActionSchema,
  result: ActionResultSchema,
});
export const CancelResponseSchema = z.object({ action: PendingActionSchema });

/**
 * GET /api/chats/{id} (or the page's server-side read of the same view), checked. The message
 * envelope is validated here; the parts the UI acts on are parsed again where they are rendered.
 */
export function parseChatSnapshot(json: unknown): ChatSnapshot | null {
  const r = ChatSnapshotSchema.safeParse(json);
  return r.success ? { ...r.data, messages: r.data.messages as ChatMessage[] } : null;
}
