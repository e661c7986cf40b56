/**
 * A person takes over a chat (docs/api.md, "Handoff"). The customer asks for a human (the model's
 * `request_human` tool, which needs no confirmation: it changes only who answers); from then on
 * the assistant does not answer in the chat, staff reply as role `staff`, and a release hands the
 * chat back. Each change is one transaction: a conditional update on the chat's open handoff row
 * (the database decides a race between a reply and a release), the message it adds, and one
 * audit event.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { createTranslator } from "use-intl/core";
import { getChatForStaff } from "@/db/queries/audit-transcript";
import { appendMessages } from "@/db/queries/chats";
import {
  closeHandoff,
  getOpenHandoff,
  type HandoffRow,
  listOpenHandoffs,
  markStaffReply,
  openHandoff,
  touchHandoff,
  userNames,
} from "@/db/queries/handoffs";
import { writeTransaction } from "@/db/queries/tx";
import { supersedePendingInChat } from "@/lib/actions";
import type { ChatUIMessage, StoredChatMessage } from "@/lib/api/parts";
import type { HandoffQueueResponse, HandoffView } from "@/lib/api/schemas";
import { recordAudit } from "@/lib/audit-log/record";
import { storedChatLanguage } from "@/lib/chat/present";
import { AppError } from "@/lib/errors";
import { messagesFor } from "@/lib/i18n/messages";
import type { Locale as Lang } from "@/lib/text/language";
import { REQUEST_HUMAN, STAFF_RELEASE, STAFF_REPLY } from "./names";

export type { HandoffView };
export { REQUEST_HUMAN, STAFF_RELEASE, STAFF_REPLY };

export function handoffText(lang: Lang, key: "handoffNote" | "handoffReleased"): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "turn" });
  return key === "handoffNote" ? t("handoffNote") : t("handoffReleased");
}

async function toView(row: HandoffRow | null): Promise<HandoffView | null> {
  if (!row || row.status === "released") return null;
  const name = row.staffId ? (await userNames([row.staffId])).get(row.staffId) : undefined;
  return {
    status: row.status,
    since: row.requestedAt.toISOString(),
    ...(name !== undefined ? { staff: { name } } : {}),
  };
}

export async function getHandoffView(chatId: string): Promise<HandoffView | null> {
  return await toView(await getOpenHandoff({ chatId }));
}

export async function isHandedOff(chatId: string): Promise<boolean> {
  return (await getOpenHandoff({ chatId })) !== null;
}

/**
 * The chat enters handoff (called inside the transaction that saves the turn which asked): the
 * open handoff row, the chat's pending proposal superseded (a person answers now, not a card),
 * one audit event. Asking again while one is open changes nothing.
 */
export async function requestHandoff({
  chatId,
  userId,
  toolCallId = null,
  now = new Date(),
}: {
  chatId: string;
  userId: string;
  toolCallId?: string | null;
  now?: Date;
}): Promise<{ created: boolean }> {
  return await writeTransaction(async () => {
    const { created } = await openHandoff({ chatId, userId, now });
    const superseded = await supersedePendingInChat({ userId, chatId, now, errorCode: "handoff" });
    if (created) {
      await recordAudit({
        at: now,
        tool: REQUEST_HUMAN,
        access: null,
        status: "success",
        userId,
        chatId,
        toolCallId,
        arguments: {},
        result: { handoff: "waiting", superseded },
      });
    }
    return { created };
  });
}

/** The message a handoff note is stored as (and streamed as): the note and its data part. */
export function handoffNoteMessage(
  id: string,
  lang: Lang,
  status: "waiting" | "released",
): ChatUIMessage {
  return {
    id,
    role: "assistant",
    parts: [
      { type: "data-handoff", id, data: { status } },
      {
        type: "text",
        text: handoffText(lang, status === "waiting" ? "handoffNote" : "handoffReleased"),
      },
    ],
  };
}

/**
 * The customer wrote in a handed-off chat: stored, with the short note that a person will reply;
 * no model is called. Null (nothing stored) when the chat is not handed off (anymore), and the
 * assistant answers as usual. The no-op update on the handoff row takes its lock first, as a
 * staff reply and a release do, so a release cannot slip between the check and the save.
 */
export async function storeMessageInHandoff({
  chatId,
  userMessage,
  lang,
  claim,
  now = new Date(),
}: {
  chatId: string;
  userMessage: ChatUIMessage;
  lang: Lang;
  /** Ends the turn's lease inside the same commit (false: the turn lost it, nothing is stored). */
  claim: () => Promise<boolean>;
  now?: Date;
}): Promise<ChatUIMessage | null> {
  return await writeTransaction(async () => {
    const open = await markCustomerMessage(chatId);
    if (!open) return null;
    if (!(await claim())) throw new AppError("turn_in_progress", "Another message is being sent.");
    const note = handoffNoteMessage(randomUUID(), lang, "waiting");
    await appendMessages({
      chatId,
      now,
      items: [
        { id: userMessage.id, role: "user", parts: userMessage.parts },
        { id: note.id, role: "assistant", parts: note.parts },
      ],
    });
    return note;
  });
}

/** Locks the open handoff row (PostgreSQL) by touching it; null if none is open. */
async function markCustomerMessage(chatId: string): Promise<HandoffRow | null> {
  const open = await getOpenHandoff({ chatId });
  if (!open) return null;
  return await touchHandoff(open);
}

export type StaffMember = { id: string; name: string };

/** POST /api/staff/chats/{id}/messages: a staff reply, shown to the customer with their name. */
export async function replyAsStaff({
  chatId,
  staff,
  text,
  now = new Date(),
}: {
  chatId: string;
  staff: StaffMember;
  text: string;
  now?: Date;
}): Promise<{ message: StoredChatMessage; handoff: HandoffView }> {
  if (!(await getChatForStaff({ id: chatId }))) throw new AppError("not_found", "No such chat.");
  const id = randomUUID();
  const message: StoredChatMessage = {
    id,
    role: "staff",
    parts: [
      { type: "data-staff", id, data: { name: staff.name } },
      { type: "text", text },
    ],
  };
  const row = await writeTransaction(async () => {
    const row = await markStaffReply({ chatId, staffId: staff.id, now });
    if (!row) return null;
    await appendMessages({ chatId, now, items: [{ id, role: "staff", parts: message.parts }] });
    await recordAudit({
      at: now,
      tool: STAFF_REPLY,
      access: "write",
      status: "success",
      userId: staff.id,
      chatId,
      // The words are in the transcript; the audit keeps who, where and how long.
      arguments: { chars: [...text].length },
      result: {
        messageId: id,
        handoff: "active",
        // Stryker disable next-line OptionalChaining: markStaffReply has just set firstReplyAt (now, or the earlier first reply): never null here
        firstReply: row.firstReplyAt?.getTime() === now.getTime(),
      },
    });
    return row;
  });
  if (!row) throw notHandedOff();
  return {
    message,
    handoff: {
      status: "active",
      since: row.requestedAt.toISOString(),
      staff: { name: staff.name },
    },
  };
}

/** POST /api/staff/chats/{id}/release: the assistant answers the chat again. */
export async function releaseChat({
  chatId,
  staff,
  now = new Date(),
}: {
  chatId: string;
  staff: StaffMember;
  now?: Date;
}): Promise<{ handoff: null }> {
  if (!(await getChatForStaff({ id: chatId }))) throw new AppError("not_found", "No such chat.");
  const lang = await storedChatLanguage(chatId);
  const released = await writeTransaction(async () => {
    const row = await closeHandoff({ chatId, staffId: staff.id, now });
    if (!row) return null;
    const note = handoffNoteMessage(randomUUID(), lang, "released");
    await appendMessages({
      chatId,
      now,
      items: [{ id: note.id, role: "assistant", parts: note.parts }],
    });
    await recordAudit({
      at: now,
      tool: STAFF_RELEASE,
      access: "write",
      status: "success",
      userId: staff.id,
      chatId,
      arguments: {},
      result: {
        handoff: "released",
        requestedAt: row.requestedAt.toISOString(),
        firstReplyAt: row.firstReplyAt?.toISOString() ?? null,
      },
    });
    return row;
  });
  if (!released) throw notHandedOff();
  return { handoff: null };
}

/** GET /api/staff/handoffs. */
export async function listHandoffQueue(): Promise<HandoffQueueResponse> {
  const rows = await listOpenHandoffs();
  const names = await userNames([...new Set(rows.flatMap((r) => (r.staffId ? [r.staffId] : [])))]);
  return {
    handoffs: rows.flatMap((r) => {
      if (r.status === "released") return [];
      const name = r.staffId ? names.get(r.staffId) : undefined;
      return [
        {
          chatId: r.chatId,
          chatTitle: r.chatTitle,
          customer:
            r.customerName !== null && r.customerEmail !== null
              ? { name: r.customerName, email: r.customerEmail }
              : null,
          status: r.status,
          since: r.requestedAt.toISOString(),
          ...(name !== undefined ? { staff: { name } } : {}),
        },
      ];
    }),
  };
}

function notHandedOff(): AppError {
  return new AppError("not_handed_off", "This chat is not waiting for a person.");
}
