import { EmbedSessionRequest } from "@/lib/api/schemas";
import { servedOverHttps } from "@/lib/auth/secure-cookies";
import { endEmbedSession, startEmbedSession } from "@/lib/embed/session";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The store vouches for its customer with a signed token; the answer sets the frame's session. */
export const POST = handler(async (req) => {
  const body = await readJson(req, EmbedSessionRequest);
  const host = req.headers.get("host");
  const origin = host
    ? `${servedOverHttps(req) ? "https" : "http"}://${host}`
    : new URL(req.url).origin;
  const session = await startEmbedSession({
    token: body.token,
    origin: body.origin,
    requestOrigin: origin,
    ipAddress: clientAddress(req.headers),
    userAgent: req.headers.get("user-agent"),
  });
  const res = json({ user: session.user, storeCustomerId: session.storeCustomerId });
  res.headers.append("set-cookie", session.setCookie);
  return res;
});

/** ReturnsDesk.shutdown(): the frame's session ends with the store's own sign-out. */
export const DELETE = handler(async (req) => {
  const res = json({ signedOut: true });
  res.headers.append("set-cookie", await endEmbedSession(req.headers));
  return res;
});

export const { GET, PUT, PATCH } = notAllowed("POST", "DELETE");
