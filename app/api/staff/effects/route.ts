import { StaffEffectsQuery } from "@/lib/api/schemas";
import { requireStaff } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { describeZodError, json } from "@/lib/http/respond";
import { listCanaries, listQueue } from "@/lib/work-queue/queue";

export const dynamic = "force-dynamic";

/**
 * GET /api/staff/effects?status=failed,needs_attention (the default): the staff work queue,
 * newest first, with each effect's action, customer, kind, attempts and last error, and the
 * integration canaries (lib/effects/canary.ts). Staff only;
 * auth comes before parsing, so nobody else learns which parameters are valid.
 */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  const parsed = StaffEffectsQuery.safeParse(
    Object.fromEntries(new URL(req.url).searchParams.entries()),
  );
  if (!parsed.success) throw new AppError("invalid_request", describeZodError(parsed.error));
  return json(
    {
      effects: await listQueue({ statuses: parsed.data.status }),
      canaries: await listCanaries(),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
