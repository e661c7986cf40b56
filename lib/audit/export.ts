/**
 * The streamed CSV export: a ReadableStream that pulls one keyset page (1,000 rows) per read, so
 * memory stays flat however many events match and a slow client slows the queries down instead
 * of filling a buffer (the stream only asks for the next page when the last one was consumed).
 */
import "server-only";
import { type AuditFilters, getPeopleByIds, iterateAuditEvents } from "@/db/queries/audit";
import { csvLine } from "./csv";

export const CSV_COLUMNS = [
  "id",
  "at",
  "customer_email",
  "user_id",
  "chat_id",
  "action_id",
  "tool_call_id",
  "tool",
  "access",
  "status",
  "error_code",
  "duration_ms",
  "prompt_version",
  "model",
  "arguments",
  "result",
] as const;

export function auditCsvStream(filters: AuditFilters, pageSize = 1000): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = iterateAuditEvents({ filters, pageSize });
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(CSV_COLUMNS)));
        return;
      }
      const next = await pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      const rows = next.value;
      const people = await getPeopleByIds({
        ids: rows.flatMap((r) => (r.userId ? [r.userId] : [])),
      });
      let chunk = "";
      for (const r of rows) {
        chunk += csvLine([
          r.id,
          r.at,
          r.userId ? (people.get(r.userId)?.email ?? "") : "",
          r.userId,
          r.chatId,
          r.actionId,
          r.toolCallId,
          r.tool,
          r.access,
          r.status,
          r.errorCode,
          r.durationMs,
          r.promptVersion,
          r.model,
          r.arguments,
          r.result,
        ]);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      // The client went away: stop iterating, no more queries run.
      pages.return(undefined);
    },
  });
}
