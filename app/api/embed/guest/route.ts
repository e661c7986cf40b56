import { EmbedGuestRequest } from "@/lib/api/schemas";
import { startGuestSession } from "@/lib/embed/session";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** A store page's visitor without the store's token: a guest's session, the return policy only. */
export const POST = handler(async (req) => {
  const body = await readJson(req, EmbedGuestRequest);
  const session = await startGuestSession({
    origin: body.origin,
    locale: body.locale,
    ipAddress: clientAddress(req.headers),
    userAgent: req.headers.get("user-agent"),
  });
  const res = json({ user: session.user, guest: true });
  res.headers.append("set-cookie", session.setCookie);
  return res;
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
