/**
 * GET /api/audit, as docs/api.md "Audit" says: the query-string schema, the opaque cursor and the
 * public AuditEvent shape. The page, the API and the CSV export share these filters so staff see
 * the same rows everywhere.
 */
import "server-only";
import type { z } from "zod";
import {
  type AuditFilters,
  type AuditKey,
  type AuditRow,
  keyOf,
  listAuditEvents,
} from "@/db/queries/audit";
import { auditFilterParams, auditListParams } from "@/lib/api/audit-params";
import type { AuditEvent } from "@/lib/api/schemas";
import { AppError } from "@/lib/errors";
import { describeZodError } from "@/lib/http/respond";

// The query-string schemas are the API's contract (lib/api/audit-params.ts); the page and the
// export use them through here.
export { auditFilterParams, auditListParams };

/** Query string -> object; a repeated parameter is ambiguous, so it is an error too. */
export function parseSearchParams<S extends z.ZodType>(
  params: URLSearchParams,
  schema: S,
): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in raw) throw new AppError("invalid_request", `${key}: give it once`);
    // An empty value is an unset filter: HTML forms and docs/api.md's own template send `status=`.
    if (value.trim() === "") continue;
    raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid_request", describeZodError(parsed.error));
  return parsed.data;
}

/** The cursor is opaque to clients ("c1." + base64url of "<at ms>.<id>") so it can change. */
export function encodeCursor(key: AuditKey): string {
  return `c1.${Buffer.from(`${key.at}.${key.id}`).toString("base64url")}`;
}

export function decodeCursor(cursor: string): AuditKey {
  const m = /^c1\.([A-Za-z0-9_-]+)$/.exec(cursor);
  const decoded = m ? Buffer.from(m[1]!, "base64url").toString() : "";
  const parts = /^(\d{1,15})\.([1-9]\d{0,15})$/.exec(decoded);
  if (!parts) throw new AppError("invalid_request", "cursor: not a cursor from this API");
  return { at: Number(parts[1]), id: Number(parts[2]) };
}

/** docs/api.md AuditEvent (lib/api/schemas.ts). `id` is a string: clients must not do arithmetic
 *  on it, and it leaves room for ids larger than a JSON number holds exactly. */
export type { AuditEvent };

export function toAuditEvent(r: AuditRow): AuditEvent {
  return {
    id: String(r.id),
    at: r.at.toISOString(),
    userId: r.userId,
    actorId: r.actorId,
    chatId: r.chatId,
    actionId: r.actionId,
    toolCallId: r.toolCallId,
    tool: r.tool,
    access: r.access,
    status: r.status,
    errorCode: r.errorCode,
    durationMs: r.durationMs,
    arguments: r.arguments ?? null,
    result: r.result ?? null,
    promptVersion: r.promptVersion,
    model: r.model,
  };
}

export function filtersOf(p: z.infer<typeof auditFilterParams>): AuditFilters {
  return {
    status: p.status,
    tool: p.tool,
    chatId: p.chatId,
    userId: p.userId,
    from: p.from,
    to: p.to,
  };
}

/** One API page: newest first, `nextCursor` null on the last page. */
export async function queryAuditEvents(params: URLSearchParams): Promise<{
  events: AuditEvent[];
  nextCursor: string | null;
}> {
  const p = parseSearchParams(params, auditListParams);
  const before = p.cursor === undefined ? undefined : decodeCursor(p.cursor);
  const { rows, hasMore } = await listAuditEvents({
    filters: filtersOf(p),
    before,
    limit: p.limit,
  });
  const last = rows.at(-1);
  return {
    events: rows.map(toAuditEvent),
    nextCursor: hasMore && last ? encodeCursor(keyOf(last)) : null,
  };
}
