/**
 * Who is asking: missing, forged, tampered and signed-out session cookies on every endpoint
 * (401 `unauthenticated`), cross-site state changes with a valid cookie (403), and sign-in
 * abuse (better-auth's errors, wrapped in the contract's `error` object).
 */
import { type Case, SIGN_IN, say } from "./types";

/** Endpoints that need a session, with a request that would otherwise succeed. */
const PROTECTED: Omit<Case, "name" | "status" | "code">[] = [
  { path: "/api/chats" },
  { method: "POST", path: "/api/chats" },
  { path: "/api/chats/{emptyChat}" },
  { method: "POST", path: "/api/chats/{emptyChat}/messages", json: say("Where is order 8041?") },
  { method: "POST", path: "/api/actions/{pendingAction}/confirm" },
  { method: "POST", path: "/api/actions/{pendingAction}/cancel" },
  { path: "/api/audit" },
  { path: "/api/audit/export" },
];

const BAD_COOKIES: [string, string | null][] = [
  ["no cookie", null],
  ["forged token", "better-auth.session_token=forged.c2lnbmF0dXJl"],
  ["forged secure-prefixed token", "__Secure-better-auth.session_token=forged.c2lnbmF0dXJl"],
  ["signed-out session", "{signedOutCookie}"],
  ["token without its signature", "{annaTokenOnly}"],
  ["real token with a tampered signature", "{annaTampered}"],
  ["8 KB of junk", `better-auth.session_token=${"A".repeat(8000)}`],
];

const label = (c: Omit<Case, "name" | "status">) => `${c.method ?? "GET"} ${c.path}`;

const unauthenticated: Case[] = BAD_COOKIES.flatMap(([what, cookie]) =>
  PROTECTED.map(
    (c): Case => ({
      ...c,
      name: `${what}: ${label(c)}`,
      as: "none",
      headers: cookie === null ? undefined : { cookie },
      status: 401,
      code: "unauthenticated",
    }),
  ),
);

/** State changes a browser on another site could trigger with anna's cookie. */
const STATE_CHANGES: Omit<Case, "name" | "status" | "code">[] = [
  { method: "POST", path: "/api/chats" },
  { method: "POST", path: "/api/chats/{emptyChat}/messages", json: say("Where is order 8041?") },
  { method: "POST", path: "/api/actions/{pendingAction}/confirm" },
  { method: "POST", path: "/api/actions/{pendingAction}/cancel" },
];

const CROSS_SITE: [string, Record<string, string>][] = [
  ["Origin evil.example", { origin: "http://evil.example" }],
  ["Origin null (sandboxed frame)", { origin: "null" }],
  ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
  ["Origin on another port", { origin: "http://127.0.0.1:1" }],
  ["Origin with our host as a prefix", { origin: "http://127.0.0.1.evil.example" }],
  ["malformed Origin", { origin: "http://" }],
];

const crossSite: Case[] = CROSS_SITE.flatMap(([what, headers]) =>
  STATE_CHANGES.map(
    (c): Case => ({
      ...c,
      name: `${what}: ${label(c)}`,
      headers,
      status: 403,
      code: "forbidden_origin",
    }),
  ),
);

const credentials = { email: "anna@example.com", password: "returns-demo" };

const signIn: Case[] = [
  {
    name: "sign-in from another site: Origin evil.example",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { origin: "http://evil.example" },
    json: credentials,
    status: 403,
    code: "invalid_origin",
  },
  {
    name: "sign-in from a sandboxed frame: Origin null",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { origin: "null" },
    json: credentials,
    status: 403,
    code: "missing_or_null_origin",
  },
  // Sign-in takes JSON only: a form never reaches better-auth, from any site.
  {
    name: "sign-in by a cross-site top-level form post",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
    },
    body: "email=anna%40example.com&password=returns-demo",
    status: 415,
    code: "unsupported_media_type",
  },
  {
    name: "sign-in: a same-site form post with the right password",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "email=anna%40example.com&password=returns-demo",
    status: 415,
    code: "unsupported_media_type",
  },
  ...(
    [
      ["wrong password", { ...credentials, password: "wrong-password" }],
      ["unknown email", { email: "nobody@example.com", password: "returns-demo" }],
      [
        "staff email, customer password guess",
        { email: "staff@example.com", password: "password1" },
      ],
    ] as const
  ).map(
    ([what, json]): Case => ({
      name: `sign-in: ${what}`,
      as: "none",
      method: "POST",
      path: SIGN_IN,
      json,
      status: 401,
      code: "invalid_email_or_password",
    }),
  ),
  ...(
    [
      ["email is a number", { email: 42, password: "returns-demo" }],
      ["email is an object", { email: { $ne: null }, password: "returns-demo" }],
      ["password is an array", { email: "anna@example.com", password: ["returns-demo"] }],
      ["no password", { email: "anna@example.com" }],
      ["empty object", {}],
    ] as const
  ).map(
    ([what, json]): Case => ({
      name: `sign-in: ${what}`,
      as: "none",
      method: "POST",
      path: SIGN_IN,
      json,
      status: 400,
      code: "validation_error",
    }),
  ),
  ...(
    [
      ["SQL in the email", "' OR 1=1 --"],
      ["NUL in the email", "anna@example.com\u0000"],
      ["markup as the email", "<script>@example.com"],
      ["RTL override in the email", "anna@example.com\u202e"],
    ] as const
  ).map(
    ([what, email]): Case => ({
      name: `sign-in: ${what}`,
      as: "none",
      method: "POST",
      path: SIGN_IN,
      json: { email, password: "returns-demo" },
      status: 400,
      code: "invalid_email",
    }),
  ),
  {
    name: "sign-in: broken JSON",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { "content-type": "application/json" },
    body: '{"email":',
    status: 400,
    code: "bad_request",
  },
  {
    name: "sign-in: text/plain",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { "content-type": "text/plain" },
    body: JSON.stringify(credentials),
    status: 415,
    code: "unsupported_media_type",
  },
  {
    name: "sign-in: a 1 MB password",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    json: { email: "anna@example.com", password: "p".repeat(1_000_000) },
    status: 413,
    code: "payload_too_large",
  },
  {
    name: "sign-in: a 200-character password",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    json: { email: "anna@example.com", password: "p".repeat(200) },
    status: 400,
    code: "password_too_long",
  },
  {
    name: "sign-in: a 3 MB email",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    json: { email: `${"a".repeat(3_000_000)}@example.com`, password: "returns-demo" },
    status: 413,
    code: "payload_too_large",
  },
  {
    name: "sign-up is disabled",
    as: "none",
    method: "POST",
    path: "/api/auth/sign-up/email",
    json: { email: "mallory@example.com", password: "returns-demo", name: "Mallory" },
    status: 400,
    code: "email_password_sign_up_disabled",
  },
  {
    name: "sign-out from another site",
    method: "POST",
    path: "/api/auth/sign-out",
    headers: { origin: "http://evil.example" },
    json: {},
    status: 403,
    code: "invalid_origin",
  },
];

/**
 * Anonymous requests with a broken body: authentication comes first, so each gets
 * 401, never the 400/413/415 that would mean the body was read.
 */
const BAD_BODIES: [string, Pick<Case, "body" | "headers">][] = [
  ["broken JSON", { body: '{"text": ', headers: { "content-type": "application/json" } }],
  ["text/plain", { body: "hello", headers: { "content-type": "text/plain" } }],
  [
    "70 KB",
    {
      body: JSON.stringify({ text: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    },
  ],
];
const BODY_ROUTES = [
  "/api/chats/{emptyChat}/messages",
  "/api/chats",
  "/api/actions/{pendingAction}/confirm",
  "/api/staff/chats/{emptyChat}/triage",
];
const anonymousBadBodies: Case[] = BAD_BODIES.flatMap(([what, body]) =>
  BODY_ROUTES.map(
    (path): Case => ({
      name: `anonymous with ${what}: POST ${path}`,
      as: "none",
      method: "POST",
      path,
      ...body,
      status: 401,
      code: "unauthenticated",
    }),
  ),
);

/**
 * Password guesses for one account, each with a different made-up X-Forwarded-For:
 * the header changes nothing, and after AUTH_ACCOUNT_MAX_FAILURES (5) wrong passwords the
 * account answers 429, even to the right password. Runs in this order; boris's session from the
 * world's set-up is not affected.
 */
const rotatingForwardedFor: Case[] = [
  ...[1, 2, 3, 4, 5].map(
    (i): Case => ({
      name: `rotating X-Forwarded-For #${i}: wrong password for boris`,
      as: "none",
      method: "POST",
      path: SIGN_IN,
      headers: { "x-forwarded-for": `203.0.113.${i}` },
      json: { email: "boris@example.com", password: `guess-${i}` },
      status: 401,
      code: "invalid_email_or_password",
    }),
  ),
  {
    name: "rotating X-Forwarded-For #6: boris is locked, even with the right password",
    as: "none",
    method: "POST",
    path: SIGN_IN,
    headers: { "x-forwarded-for": "203.0.113.6" },
    json: { email: "BORIS@example.com", password: "returns-demo" },
    status: 429,
    code: "rate_limited",
  },
];

export const authCases: Case[] = [
  ...rotatingForwardedFor,
  ...unauthenticated,
  ...crossSite,
  ...signIn,
  ...anonymousBadBodies,
];
