/**
 * GET /api/audit and GET /api/audit/export: the query-string schemas, declared once with the API's
 * other shapes, so the OpenAPI document (openapi.ts) describes them without importing the staff
 * read side (lib/audit/query.ts parses with them).
 */
import { z } from "zod";
import { AUDIT_STATUSES } from "@/db/schema";

const id = z.string().trim().min(1).max(200);
const dateTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** Filters shared by the list and the export. */
const filterShape = {
  status: z.enum(AUDIT_STATUSES).optional(),
  tool: id.optional(),
  chatId: id.optional(),
  userId: id.optional(),
  from: dateTime.optional(),
  to: dateTime.optional(),
};

const orderedRange = (p: { from?: Date; to?: Date }) => !p.from || !p.to || p.from < p.to;
const rangeMessage = { message: "from must be before to", path: ["from"] };

/** Unknown parameters are refused, not ignored: a typo such as `stauts=` would otherwise
 *  silently return every event. */
export const auditFilterParams = z.object(filterShape).strict().refine(orderedRange, rangeMessage);

export const auditListParams = z
  .object({
    ...filterShape,
    cursor: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .refine(orderedRange, rangeMessage);
