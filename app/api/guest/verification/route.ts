import { GuestVerificationRequest } from "@/lib/api/schemas";
import { requireCustomer } from "@/lib/auth/session";
import { requestGuestCode } from "@/lib/guests/verification";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** A code for an order placed without an account: 202 whatever the match. */
export const POST = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  const body = await readJson(req, GuestVerificationRequest);
  await requestGuestCode({
    user,
    orderId: body.orderId,
    email: body.email,
    locale: body.locale ?? user.locale ?? "en",
    ipAddress: clientAddress(req.headers),
  });
  return json({ sent: true }, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
