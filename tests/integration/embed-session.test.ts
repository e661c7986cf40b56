/**
 * The store vouches for its customer: POST /api/embed/session through the real route handler,
 * with tokens signed by jose exactly as docs/embed.md tells a store to sign them, and a real
 * JWKS served on loopback. Every bad token is 401 with its own code, sets no cookie and is
 * audited; a good one starts a partitioned better-auth session that the rest of the API accepts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listChats, POST as newChat } from "@/app/api/chats/route";
import { DELETE as endSession, POST as startSession } from "@/app/api/embed/session/route";
import { GET as staffTranscript } from "@/app/api/staff/chats/[id]/route";
import { getDb } from "@/db";
import { auditEvents, user } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";

const SECRET = "store-secret-store-secret-store-secret-01";
const PREVIOUS = "older-secret-older-secret-older-secret-02";
const AUDIENCE = "https://desk.example";
const STORE = "http://127.0.0.1:4100";
const EMBED_ENV = {
  EMBED_JWT_SECRET: SECRET,
  EMBED_JWT_SECRET_PREVIOUS: PREVIOUS,
  EMBED_AUDIENCE: AUDIENCE,
  EMBED_ALLOWED_ORIGINS: `${STORE}, http://127.0.0.1:4200`,
};

function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

let seq = 0;
type Claims = Record<string, unknown>;
const nowS = () => Math.floor(Date.now() / 1000);

/** A token as the store signs it; `claims` override or (undefined) remove the defaults. */
async function token(
  claims: Claims = {},
  { secret = SECRET, alg = "HS256", typ }: { secret?: string; alg?: string; typ?: string } = {},
) {
  const all: Claims = {
    sub: "demo-anna",
    email: "anna@example.com",
    name: "Anna Petrova",
    aud: AUDIENCE,
    iat: nowS(),
    exp: nowS() + 300,
    jti: `jti-${process.pid}-${++seq}`,
    ...claims,
  };
  const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
  return new SignJWT(payload)
    .setProtectedHeader(typ === undefined ? { alg } : { alg, typ })
    .sign(new TextEncoder().encode(secret));
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

function post(body: unknown) {
  return call(startSession, "/api/embed/session", {}, { body });
}

async function refusedWith(res: Response, code: string) {
  expect(res.status).toBe(401);
  expect((await res.json()).error.code).toBe(code);
  expect(res.headers.getSetCookie()).toEqual([]);
}

async function rejectedAudits(code: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tool, "embed:session"),
        eq(auditEvents.status, "rejected"),
        eq(auditEvents.errorCode, code),
      ),
    );
}

const cookieOf = (res: Response) => res.headers.getSetCookie()[0]!.split(";")[0]!;

describe("POST /api/embed/session", () => {
  beforeAll(async () => {
    await useTestDatabase({ env: EMBED_ENV });
  });
  beforeEach(() => setEnv(EMBED_ENV));

  it("a good token for demo-anna is Anna: a partitioned session the API accepts", async () => {
    const res = await post({ token: await token(), origin: STORE });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.email).toBe("anna@example.com");
    expect(body.storeCustomerId).toBe("demo-anna");
    const [setCookie] = res.headers.getSetCookie();
    expect(setCookie).toMatch(/^better-auth\.session_token=/);
    for (const attr of ["HttpOnly", "Secure", "SameSite=None", "Partitioned", "Path=/"])
      expect(setCookie).toContain(attr);
    const chats = await call(listChats, "/api/chats", {}, { cookie: cookieOf(res) });
    expect(chats.status).toBe(200);
    const [event] = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tool, "embed:session"), eq(auditEvents.status, "success")));
    expect(event?.userId).toBe(body.user.id);
    expect(event?.arguments).toEqual({ storeCustomerId: "demo-anna", origin: STORE });
  });

  it("staff see where a chat came from: the store page it was embedded on and the store's customer id", async () => {
    const res = await post({ token: await token(), origin: STORE });
    const embedded = await call(
      newChat,
      "/api/chats",
      {},
      { method: "POST", cookie: cookieOf(res) },
    );
    expect(embedded.status).toBe(201);
    const { chat } = await embedded.json();
    // The same customer on our own site: that chat was embedded nowhere.
    const own = await call(
      newChat,
      "/api/chats",
      {},
      { method: "POST", cookie: await signIn("anna@example.com") },
    );
    const ownChat = (await own.json()).chat;
    const staff = await signIn("staff@example.com");
    const seen = await (
      await call(staffTranscript, `/api/staff/chats/${chat.id}`, { id: chat.id }, { cookie: staff })
    ).json();
    expect(seen.chat.embedOrigin).toBe(STORE);
    // The store's token started the session: the store vouched for it.
    expect(seen.chat.embedOriginVouched).toBe(true);
    expect(seen.customer.storeCustomerId).toBe("demo-anna");
    const ownSeen = await (
      await call(
        staffTranscript,
        `/api/staff/chats/${ownChat.id}`,
        { id: ownChat.id },
        { cookie: staff },
      )
    ).json();
    expect(ownSeen.chat.embedOrigin).toBeNull();
    expect(ownSeen.customer.storeCustomerId).toBe("demo-anna");
  });

  it("an origin that is not allowed is not recorded as where the chat is embedded", async () => {
    const res = await post({
      token: await token({ sub: "demo-boris", email: "boris@example.com" }),
      origin: "https://evil.example",
    });
    expect(res.status).toBe(200);
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "embed:session"));
    expect(events.at(-1)?.arguments).toEqual({ storeCustomerId: "demo-boris", origin: null });
  });

  it("during a rotation a token signed with the previous secret still works", async () => {
    const res = await post({ token: await token({}, { secret: PREVIOUS }) });
    expect(res.status).toBe(200);
  });

  it("60 s of clock skew: a token expired 30 s ago is still accepted", async () => {
    const res = await post({ token: await token({ exp: nowS() - 30, iat: nowS() - 200 }) });
    expect(res.status).toBe(200);
  });

  const bad: [string, string, () => Promise<unknown>][] = [
    ["forged (another secret)", "token_forged", async () => token({}, { secret: "x".repeat(40) })],
    [
      "forged (payload changed after signing)",
      "token_forged",
      async () => {
        const [h, , s] = (await token()).split(".");
        return `${h}.${b64({ sub: "demo-boris", email: "boris@example.com", aud: AUDIENCE, iat: nowS(), exp: nowS() + 300, jti: "x" })}.${s}`;
      },
    ],
    ["expired", "token_expired", async () => token({ iat: nowS() - 600, exp: nowS() - 120 })],
    ["issued in the future", "token_not_yet_valid", async () => token({ iat: nowS() + 300 })],
    ["not valid before later", "token_not_yet_valid", async () => token({ nbf: nowS() + 300 })],
    [
      "exp more than 15 minutes ahead",
      "token_lifetime_too_long",
      async () => token({ exp: nowS() + 3600 }),
    ],
    [
      "another audience",
      "token_wrong_audience",
      async () => token({ aud: "https://other.example" }),
    ],
    ["no audience", "token_wrong_audience", async () => token({ aud: undefined })],
    ["no jti", "token_claims_invalid", async () => token({ jti: undefined })],
    ["no iat", "token_claims_invalid", async () => token({ iat: undefined })],
    ["no sub", "token_claims_invalid", async () => token({ sub: undefined })],
    ["no email", "token_claims_invalid", async () => token({ email: undefined })],
    ["oversized (> 4 KB)", "token_too_large", async () => token({ name: "a".repeat(5000) })],
    [
      "alg none",
      "token_unsigned",
      async () =>
        `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "demo-anna", email: "anna@example.com", aud: AUDIENCE, iat: nowS(), exp: nowS() + 300, jti: "none-1" })}.`,
    ],
    [
      "RS256 claimed on the shared secret",
      "token_algorithm_not_allowed",
      async () => token({}, { alg: "HS512" }),
    ],
    ["not a JWT", "token_malformed", async () => "hello"],
    [
      "typ other than JWT (another kind of token signed with the same key)",
      "token_malformed",
      async () => token({}, { typ: "at+jwt" }),
    ],
    [
      "iat a year old with exp near",
      "token_lifetime_too_long",
      async () => token({ iat: nowS() - 365 * 86_400, exp: nowS() + 60 }),
    ],
    ["sub with a NUL", "token_claims_invalid", async () => token({ sub: "demo-anna\u0000" })],
    ["sub with a control", "token_claims_invalid", async () => token({ sub: "demo-\u0007anna" })],
    [
      "sub with a bidi override",
      "token_claims_invalid",
      async () => token({ sub: "\u202Edemo-anna" }),
    ],
    [
      "sub with a zero-width space",
      "token_claims_invalid",
      async () => token({ sub: "demo\u200B-anna" }),
    ],
  ];

  for (const [what, code, make] of bad)
    it(`${what}: 401 ${code}, no session, audited`, async () => {
      const before = (await rejectedAudits(code)).length;
      await refusedWith(await post({ token: await make() }), code);
      expect((await rejectedAudits(code)).length).toBe(before + 1);
    });

  it("the lifetime is at most 15 minutes from iat: 15 is accepted, 16 is refused", async () => {
    const iat = nowS();
    expect((await post({ token: await token({ iat, exp: iat + 15 * 60 }) })).status).toBe(200);
    await refusedWith(
      await post({ token: await token({ iat, exp: iat + 16 * 60 }) }),
      "token_lifetime_too_long",
    );
  });

  it("typ JWT, in any case, is accepted", async () => {
    expect((await post({ token: await token({}, { typ: "JWT" }) })).status).toBe(200);
    expect((await post({ token: await token({}, { typ: "jwt" }) })).status).toBe(200);
  });

  it("sub is taken exactly as signed: ' demo-anna ' is not Anna", async () => {
    const res = await post({ token: await token({ sub: " demo-anna " }) });
    // Another store customer claiming Anna's email: refused, not signed in as her.
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("email_in_use");
    const spaced = await post({
      token: await token({ sub: " cust-spaced ", email: "spaced@shop.example" }),
    });
    expect(spaced.status).toBe(200);
    expect((await spaced.json()).storeCustomerId).toBe(" cust-spaced ");
  });

  it("the name goes through the free-text normaliser: no NUL, control or bidi reaches the row", async () => {
    const res = await post({
      token: await token({
        sub: "cust-name",
        email: "name@shop.example",
        name: "\u202ENia\u0000 \u0007New\u200B ",
      }),
    });
    expect(res.status).toBe(200);
    const { user: u } = await res.json();
    expect(u.name).toBe("Nia New");
    const [row] = await getDb().select().from(user).where(eq(user.id, u.id));
    expect(row?.name).toBe("Nia New");
  });

  it("a token works once: the replay is 401 token_replayed", async () => {
    const t = await token();
    expect((await post({ token: t })).status).toBe(200);
    await refusedWith(await post({ token: t }), "token_replayed");
    expect((await rejectedAudits("token_replayed")).length).toBeGreaterThan(0);
  });

  it("a new store customer gets an account of its own, the same one every time", async () => {
    const first = await post({
      token: await token({ sub: "cust-1", email: "new@shop.example", name: "Nia New" }),
    });
    expect(first.status).toBe(200);
    const a = await first.json();
    const second = await post({ token: await token({ sub: "cust-1", email: "new@shop.example" }) });
    expect((await second.json()).user.id).toBe(a.user.id);
    const [row] = await getDb().select().from(user).where(eq(user.id, a.user.id));
    expect(row).toMatchObject({ storeCustomerId: "cust-1", role: "customer", name: "Nia New" });
  });

  it("a known email with an unknown sub never takes over the account", async () => {
    const res = await post({
      token: await token({ sub: "attacker-7", email: "anna@example.com" }),
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("email_in_use");
    expect(res.headers.getSetCookie()).toEqual([]);
    const [anna] = await getDb().select().from(user).where(eq(user.email, "anna@example.com"));
    expect(anna?.storeCustomerId).toBe("demo-anna");
    expect(await getDb().select().from(user).where(eq(user.storeCustomerId, "attacker-7"))).toEqual(
      [],
    );
  });

  it.each([
    ["ANNA@EXAMPLE.COM"],
    ["Anna@example.com"],
    [" anna@example.com "],
    ["ａｎｎａ@example.com"],
    ["STAFF@example.com"],
  ])(
    "emails that differ only in case, space or Unicode form are one identity: %j with a new sub is 409",
    async (email) => {
      const before = (await getDb().select().from(user)).length;
      const sub = `look-alike-${seq}`;
      const res = await post({ token: await token({ sub, email }) });
      expect(res.status).toBe(409);
      expect((await res.json()).error.code).toBe("email_in_use");
      expect(res.headers.getSetCookie()).toEqual([]);
      expect((await getDb().select().from(user)).length).toBe(before);
      expect(await getDb().select().from(user).where(eq(user.storeCustomerId, sub))).toEqual([]);
    },
  );

  it("a new customer's email is stored normalised", async () => {
    const res = await post({
      token: await token({ sub: "cust-case", email: " New.Case@Shop.Example" }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).user.email).toBe("new.case@shop.example");
  });

  it("a body without a token is 400; embedding off is 404 embed_disabled", async () => {
    const res = await post({});
    expect(res.status).toBe(400);
    setEnv({ EMBED_ALLOWED_ORIGINS: undefined });
    const off = await post({ token: await token() });
    expect(off.status).toBe(404);
    expect((await off.json()).error.code).toBe("embed_disabled");
  });

  it("DELETE ends the session: its cookie no longer signs in", async () => {
    const res = await post({ token: await token() });
    const cookie = cookieOf(res);
    const out = await call(endSession, "/api/embed/session", {}, { method: "DELETE", cookie });
    expect(out.status).toBe(200);
    const [expired] = out.headers.getSetCookie();
    expect(expired).toContain("Max-Age=0");
    expect(expired).toContain("Partitioned");
    const chats = await call(listChats, "/api/chats", {}, { cookie });
    expect(chats.status).toBe(401);
  });
});

describe("POST /api/embed/session with the store's own keys (EMBED_JWKS_URL)", () => {
  let server: http.Server;
  let privateKey: CryptoKey;
  let jwksEnv: Record<string, string | undefined>;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256");
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "store-1", alg: "ES256" };
    server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    jwksEnv = {
      ...EMBED_ENV,
      EMBED_JWT_SECRET: undefined,
      EMBED_JWT_SECRET_PREVIOUS: undefined,
      EMBED_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    };
    await useTestDatabase({ env: EMBED_ENV });
  });
  beforeEach(() => setEnv(jwksEnv));
  afterAll(async () => {
    setEnv({ EMBED_JWKS_URL: undefined, ...EMBED_ENV });
    await new Promise((r) => server.close(r));
  });

  const es256 = () =>
    new SignJWT({ sub: "demo-boris", email: "boris@example.com", jti: `es-${++seq}` })
      .setProtectedHeader({ alg: "ES256", kid: "store-1" })
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);

  it("an ES256 token from the store's key set is Boris", async () => {
    const res = await post({ token: await es256() });
    expect(res.status).toBe(200);
    expect((await res.json()).user.email).toBe("boris@example.com");
  });

  it("an HS256 token is refused once a key set is configured, even with the right secret", async () => {
    await refusedWith(await post({ token: await token() }), "token_algorithm_not_allowed");
  });

  it("an ES256 token signed by another key is forged", async () => {
    const other = await generateKeyPair("ES256");
    const t = await new SignJWT({ sub: "demo-boris", email: "boris@example.com", jti: "x-1" })
      .setProtectedHeader({ alg: "ES256", kid: "store-1" })
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(other.privateKey);
    await refusedWith(await post({ token: t }), "token_forged");
  });
});
