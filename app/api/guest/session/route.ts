import { GuestSessionRequest } from "@/lib/api/schemas";
import { startSiteGuestSession } from "@/lib/guests/session";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** "Find an order without an account": a guest's session for /chat, as the widget's visitor has. */
export const POST = handler(async (req) => {
  const body = await readJson(req, GuestSessionRequest);
  const session = await startSiteGuestSession({
    locale: body.locale,
    ipAddress: clientAddress(req.headers),
    userAgent: req.headers.get("user-agent"),
  });
  const res = json({ user: session.user, guest: true });
  res.headers.append("set-cookie", session.setCookie);
  return res;
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
