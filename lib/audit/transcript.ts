/**
 * One chat as staff read it: the messages turned into plain items (text, tool call, proposal,
 * decision), the chat's pending actions and its stored triage. Stored parts are JSON written by
 * the chat (AI SDK UIMessage parts); they are parsed here, never trusted as typed, so an odd or
 * old part shows up as "other" instead of breaking the page.
 */
import { ActionOutcomePartSchema, PendingActionPartSchema, StaffPartSchema } from "@/lib/api/parts";
import "server-only";
import { z } from "zod";
import type { MessageRole } from "@/db/constants";
import { getPeopleByIds, type PersonRow } from "@/db/queries/audit";
import {
  getChatForStaff,
  listActionsForStaff,
  listMessagesForStaff,
  type StaffActionRow,
  TRANSCRIPT_MESSAGE_LIMIT,
} from "@/db/queries/audit-transcript";
import { parseStoredTriage, type StoredTriage } from "@/lib/api/triage";

export type TranscriptItem =
  | { kind: "text"; text: string }
  | {
      kind: "tool";
      tool: string;
      state: string;
      input: unknown;
      output: unknown;
      errorText: string | null;
    }
  | { kind: "proposal"; actionId: string; tool: string; arguments: unknown }
  | { kind: "outcome"; actionId: string; status: string }
  | { kind: "staff"; name: string }
  | { kind: "other"; type: string };

export type TranscriptMessage = {
  id: string;
  seq: number;
  role: MessageRole;
  at: Date;
  model: string | null;
  promptVersion: string | null;
  items: TranscriptItem[];
};

export type Transcript = {
  chat: {
    id: string;
    title: string | null;
    createdAt: Date;
    userId: string;
    /** The store page the chat was embedded on; null for a chat on our own site. */
    embedOrigin: string | null;
    /**
     * Whether a store vouched for the session that started the chat (its token). A visitor's
     * (guest's) origin is only what its browser said: anyone can post any allowed origin.
     */
    embedOriginVouched: boolean;
  };
  customer: PersonRow | null;
  messages: TranscriptMessage[];
  truncated: boolean;
  actions: StaffActionRow[];
  triage: StoredTriage | null;
};

const part = z.looseObject({ type: z.string() });
const textPart = z.object({ type: z.literal("text"), text: z.string() });
const toolPart = z.looseObject({
  type: z.string().regex(/^tool-/),
  state: z.string().default("unknown"),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
});
const dynamicToolPart = toolPart.extend({ type: z.literal("dynamic-tool"), toolName: z.string() });
// Stored parts of any age: only the fields the transcript shows are required.
const proposalPart = z.looseObject({
  type: z.literal("data-pending-action"),
  data: PendingActionPartSchema.pick({ id: true, tool: true, arguments: true }).loose(),
});
const outcomePart = z.looseObject({
  type: z.literal("data-action-outcome"),
  data: ActionOutcomePartSchema.pick({ actionId: true, status: true }).loose(),
});

const staffPart = z.looseObject({
  type: z.literal("data-staff"),
  data: StaffPartSchema.loose(),
});

export function toItem(raw: unknown): TranscriptItem | null {
  const p = part.safeParse(raw);
  if (!p.success) return { kind: "other", type: "invalid" };
  const type = p.data.type;
  // Bookkeeping parts of the AI SDK carry nothing a reader needs.
  if (type === "step-start" || type === "reasoning") return null;
  const text = textPart.safeParse(raw);
  if (text.success) return { kind: "text", text: text.data.text };
  const dyn = dynamicToolPart.safeParse(raw);
  const tool = dyn.success ? dyn.data : toolPart.safeParse(raw).data;
  if (tool) {
    const name = dyn.success ? dyn.data.toolName : type.slice("tool-".length);
    return {
      kind: "tool",
      tool: name,
      state: tool.state,
      input: tool.input ?? null,
      output: tool.output ?? null,
      errorText: tool.errorText ?? null,
    };
  }
  const proposal = proposalPart.safeParse(raw);
  if (proposal.success) {
    const d = proposal.data.data;
    return { kind: "proposal", actionId: d.id, tool: d.tool, arguments: d.arguments };
  }
  const staff = staffPart.safeParse(raw);
  if (staff.success) return { kind: "staff", name: staff.data.data.name };
  // The handoff note's text part says it; its data part is for the customer's page.
  if (type === "data-handoff") return null;
  const outcome = outcomePart.safeParse(raw);
  if (outcome.success) {
    return {
      kind: "outcome",
      actionId: outcome.data.data.actionId,
      status: outcome.data.data.status,
    };
  }
  return { kind: "other", type };
}

export async function loadTranscript({ chatId }: { chatId: string }): Promise<Transcript | null> {
  const chat = await getChatForStaff({ id: chatId });
  if (!chat) return null;
  const rows = await listMessagesForStaff({ chatId });
  const messages = rows.map((m) => ({
    id: m.id,
    seq: m.seq,
    role: m.role,
    at: m.createdAt,
    model: m.model,
    promptVersion: m.promptVersion,
    items: (Array.isArray(m.parts) ? m.parts : [])
      .map(toItem)
      .filter((i): i is TranscriptItem => i !== null),
  }));
  const customer = (await getPeopleByIds({ ids: [chat.userId] })).get(chat.userId) ?? null;
  return {
    chat: {
      id: chat.id,
      title: chat.title,
      createdAt: chat.createdAt,
      userId: chat.userId,
      embedOrigin: chat.embedOrigin,
      embedOriginVouched: chat.embedOrigin !== null && Boolean(customer?.storeCustomerId),
    },
    customer,
    messages,
    truncated: rows.length >= TRANSCRIPT_MESSAGE_LIMIT,
    actions: await listActionsForStaff({ chatId }),
    triage: parseStoredTriage(chat.triage),
  };
}
