import { GuestVerificationConfirm } from "@/lib/api/schemas";
import { requireCustomer } from "@/lib/auth/session";
import { confirmGuestCode } from "@/lib/guests/verification";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The code from the mail: the guest may act on that order alone for 30 minutes. */
export const POST = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  const body = await readJson(req, GuestVerificationConfirm);
  const verified = await confirmGuestCode({
    user,
    orderId: body.orderId,
    code: body.code,
    ipAddress: clientAddress(req.headers),
  });
  return json({ verified: { orderId: verified.orderId, until: verified.until.toISOString() } });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
