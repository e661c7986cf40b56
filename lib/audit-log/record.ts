/**
 * Writing audit events. One event per tool call the model makes and one per pending-action
 * transition (docs/architecture.md). Called inside a writeTransaction when the event belongs to a
 * state change, so the change and its audit commit or roll back together.
 */
import "server-only";
import type { ToolAccess } from "@/db/constants";
import { insertAuditEvent } from "@/db/queries/audit-write";
import type { AuditStatus } from "@/db/schema";
import { withoutNul } from "@/lib/text/nul";

export type AuditInput = {
  tool: string;
  status: AuditStatus;
  access?: ToolAccess | null;
  userId?: string | null;
  /** Who decided when it was not the customer: the staff member who approved or rejected. */
  actorId?: string | null;
  chatId?: string | null;
  actionId?: string | null;
  toolCallId?: string | null;
  errorCode?: string | null;
  durationMs?: number | null;
  arguments?: unknown;
  result?: unknown;
  promptVersion?: string | null;
  model?: string | null;
  /** `canary` for the steps of a chat the candidate profile serves. */
  profile?: string | null;
  at?: Date;
};

/** Model output can be anything; keep the audit row bounded and always valid JSON. */
const MAX_JSON_CHARS = 8_000;

export function boundedJson(value: unknown): unknown {
  if (value === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return { unserializable: true };
  }
  if (text === undefined) return null;
  if (text.length <= MAX_JSON_CHARS) return JSON.parse(text);
  return { truncated: true, preview: text.slice(0, MAX_JSON_CHARS) };
}

/** Appends one audit event and returns its id. Nothing of it keeps a NUL (lib/text/nul.ts). */
export async function recordAudit(raw: AuditInput): Promise<number> {
  const input = withoutNul(raw);
  return await insertAuditEvent({
    at: input.at ?? new Date(),
    tool: input.tool.slice(0, 200),
    status: input.status,
    access: input.access ?? null,
    userId: input.userId ?? null,
    actorId: input.actorId ?? null,
    chatId: input.chatId ?? null,
    actionId: input.actionId ?? null,
    toolCallId: input.toolCallId ?? null,
    errorCode: input.errorCode ?? null,
    durationMs:
      input.durationMs === undefined || input.durationMs === null
        ? null
        : Math.round(input.durationMs),
    arguments: boundedJson(input.arguments),
    result: boundedJson(input.result),
    promptVersion: input.promptVersion ?? null,
    model: input.model ?? null,
    profile: input.profile ?? null,
  });
}
