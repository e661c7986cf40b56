import { auditCsvStream } from "@/lib/audit/export";
import { auditFilterParams, filtersOf, parseSearchParams } from "@/lib/audit/query";
import { requireStaff } from "@/lib/auth/session";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit/export?status=&tool=&chatId=&userId=&from=&to= -> text/csv of every matching
 * event, newest first, streamed. Same filters and errors as GET /api/audit (no cursor/limit).
 */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  const params = parseSearchParams(new URL(req.url).searchParams, auditFilterParams);
  const stamp = new Date().toISOString().replaceAll(":", "-").slice(0, 19);
  return new Response(auditCsvStream(filtersOf(params)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-events-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
