/**
 * The /audit page's URL: friendlier than the API's (a customer's email instead of a user id,
 * calendar days instead of instants) but mapped onto the same AuditFilters, so the table, the
 * chart, the API and the CSV export agree. A bad value is reported on the page and ignored,
 * never a crash: staff edit these URLs by hand and share them.
 */
import "server-only";
import { z } from "zod";
import {
  type AuditFilters,
  type AuditKey,
  findPersonByEmail,
  type PersonRow,
} from "@/db/queries/audit";
import { AUDIT_STATUSES } from "@/db/schema";
import { decodeCursor, encodeCursor } from "./query";

export type PageParams = Record<string, string | string[] | undefined>;

/** The filter values exactly as typed, for the form and for links that keep them. */
export type FilterForm = {
  status: string;
  tool: string;
  customer: string;
  chat: string;
  from: string;
  to: string;
};

export type PageFilters = {
  form: FilterForm;
  filters: AuditFilters;
  customer: PersonRow | null;
  /** Filter values that could not be used, shown to the reader (worded by the page). */
  problems: FilterProblem[];
  before?: AuditKey;
  after?: AuditKey;
  /** True when the customer filter names nobody: the answer is empty, not "everyone". */
  noMatch: boolean;
};

export type FilterProblem =
  | { code: "unknown_status" | "unknown_customer" | "bad_from" | "bad_to"; value: string }
  | { code: "reversed_dates" | "bad_cursor" };

const DAY_MS = 86_400_000;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

function one(p: PageParams, key: string): string {
  const v = p[key];
  return (Array.isArray(v) ? v[0] : v)?.trim().slice(0, 200) ?? "";
}

/** A calendar day as UTC midnight (the page shows times in UTC too). */
function parseDay(value: string): Date | null {
  if (!day.safeParse(value).success) return null;
  const d = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? null : d;
}

export async function parsePageFilters(p: PageParams): Promise<PageFilters> {
  const form: FilterForm = {
    status: one(p, "status"),
    tool: one(p, "tool"),
    customer: one(p, "customer"),
    chat: one(p, "chat"),
    from: one(p, "from"),
    to: one(p, "to"),
  };
  const problems: FilterProblem[] = [];
  const filters: AuditFilters = {};
  const status = z.enum(AUDIT_STATUSES).safeParse(form.status);
  if (status.success) filters.status = status.data;
  else if (form.status) problems.push({ code: "unknown_status", value: form.status });
  if (form.tool) filters.tool = form.tool;
  if (form.chat) filters.chatId = form.chat;
  let customer: PersonRow | null = null;
  let noMatch = false;
  if (form.customer) {
    customer = await findPersonByEmail({ email: form.customer });
    if (customer) filters.userId = customer.id;
    else {
      noMatch = true;
      problems.push({ code: "unknown_customer", value: form.customer });
    }
  }
  const from = form.from ? parseDay(form.from) : null;
  const to = form.to ? parseDay(form.to) : null;
  if (form.from && !from) problems.push({ code: "bad_from", value: form.from });
  if (form.to && !to) problems.push({ code: "bad_to", value: form.to });
  // "to" is a whole day, inclusive: events before the next midnight.
  const toEnd = to ? new Date(to.getTime() + DAY_MS) : null;
  if (from && toEnd && from >= toEnd) problems.push({ code: "reversed_dates" });
  else {
    if (from) filters.from = from;
    if (toEnd) filters.to = toEnd;
  }
  const cursor = (key: "before" | "after") => {
    const raw = one(p, key);
    if (!raw) return undefined;
    try {
      return decodeCursor(raw);
    } catch {
      problems.push({ code: "bad_cursor" });
      return undefined;
    }
  };
  const after = cursor("after");
  const before = after ? undefined : cursor("before");
  return { form, filters, customer, problems, before, after, noMatch };
}

/** /audit with the current filters plus changes; empty values are dropped from the URL. */
export function auditHref(
  form: FilterForm,
  changes: Record<string, string | undefined> = {},
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...form, ...changes })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/audit?${s}` : "/audit";
}

export const cursorParam = encodeCursor;

/** The same filters as GET /api/audit/export parameters (user id and ISO instants). */
export function exportHref(f: AuditFilters): string {
  const q = new URLSearchParams();
  if (f.status) q.set("status", f.status);
  if (f.tool) q.set("tool", f.tool);
  if (f.chatId) q.set("chatId", f.chatId);
  if (f.userId) q.set("userId", f.userId);
  if (f.from) q.set("from", f.from.toISOString());
  if (f.to) q.set("to", f.to.toISOString());
  const s = q.toString();
  return s ? `/api/audit/export?${s}` : "/api/audit/export";
}

/** The chart's range: the chosen one, or the last 7 days up to now when none is chosen. */
export function chartRange(
  f: AuditFilters,
  now = new Date(),
): { from: Date; to: Date; chosen: boolean } {
  const to = f.to ?? now;
  const from = f.from ?? new Date(to.getTime() - 7 * DAY_MS);
  return { from, to, chosen: Boolean(f.from || f.to) };
}
