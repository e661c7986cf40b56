/**
 * Every route authenticates before it reads the body. An anonymous request
 * with a broken body gets 401 `unauthenticated`, never the 400/413/415 that would mean its body
 * was parsed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancelRoute } from "@/app/api/actions/[id]/cancel/route";
import { POST as confirmRoute } from "@/app/api/actions/[id]/confirm/route";
import { POST as sendRoute } from "@/app/api/chats/[id]/messages/route";
import { POST as createChatRoute } from "@/app/api/chats/route";
import { POST as triageRoute } from "@/app/api/staff/chats/[id]/triage/route";
import { useTestDatabase } from "../helpers/db";
import { call } from "../helpers/http";

const ID = "00000000-0000-0000-0000-000000000000";
const ROUTES = [
  ["POST /api/chats/{id}/messages", sendRoute, `/api/chats/${ID}/messages`],
  ["POST /api/chats", createChatRoute, "/api/chats"],
  ["POST /api/actions/{id}/confirm", confirmRoute, `/api/actions/${ID}/confirm`],
  ["POST /api/actions/{id}/cancel", cancelRoute, `/api/actions/${ID}/cancel`],
  ["POST /api/staff/chats/{id}/triage", triageRoute, `/api/staff/chats/${ID}/triage`],
] as const;

/** Bodies each of which, once authenticated, would get a 4xx of its own. */
const BROKEN_BODIES: [string, { raw: string; headers: Record<string, string> }][] = [
  ["broken JSON", { raw: '{"text": ', headers: { "content-type": "application/json" } }],
  ["empty text", { raw: '{"text": ""}', headers: { "content-type": "application/json" } }],
  ["text/plain", { raw: "hello", headers: { "content-type": "text/plain" } }],
  [
    "70 KB",
    {
      raw: JSON.stringify({ text: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    },
  ],
];

describe("anonymous requests are refused before their body is read", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });
  it.each(
    ROUTES.flatMap(([name, route, path]) =>
      BROKEN_BODIES.map(([what, body]) => [name, what, route, path, body] as const),
    ),
  )("%s with %s: 401", async (_name, _what, route, path, body) => {
    const res = await call(
      route as typeof sendRoute,
      path,
      { id: ID },
      { method: "POST", ...body },
    );
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthenticated");
  });
});
