/**
 * A NUL in a path id (`/api/chats/%00`, `/api/actions/%00/confirm`) is an id nobody has: 404
 * `not_found` like any unknown id, on SQLite and on PostgreSQL, whose text cannot hold NUL (it
 * answered 500 there). Also a real id with a NUL appended: still unknown, never the real one.
 * Runs in both vitest projects (vitest.config.ts POSTGRES_SUITES).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";
import { pendingActionPart } from "../helpers/stream";

let anna: Customer;
let chat: string;
let action: string;

beforeAll(async () => {
  await useTestDatabase();
  anna = await Customer.signIn("anna@example.com");
  chat = await anna.newChat();
  const turn = await anna.say(chat, "I ordered it by mistake, please cancel 3004");
  action = pendingActionPart(turn.message)!.data.id;
});

const endpoints: [
  string,
  (c: Customer, id: string, kind: "chat" | "action") => Promise<Response>,
][] = [
  ["GET /api/chats/{id}", (c, id) => c.getChat(id)],
  ["POST /api/chats/{id}/messages", (c, id) => c.post(id, { text: "Where is order 8041?" })],
  ["POST /api/actions/{id}/confirm", (c, id) => c.confirm(id)],
  ["POST /api/actions/{id}/cancel", (c, id) => c.cancel(id)],
];

describe("a NUL in a path id", () => {
  it.each(endpoints)(
    "%s: 404 not_found for a bare NUL and for a real id plus NUL",
    async (name, hit) => {
      const real = name.includes("chats") ? chat : action;
      for (const id of ["\u0000", `${real}\u0000`, `\u0000${real}`]) {
        const res = await hit(anna, id, name.includes("chats") ? "chat" : "action");
        const body = (await res.json()) as { error?: { code?: string } };
        expect({ id: JSON.stringify(id), status: res.status, code: body.error?.code }).toEqual({
          id: JSON.stringify(id),
          status: 404,
          code: "not_found",
        });
      }
    },
  );

  it("left the real chat and its proposal as they were", async () => {
    const res = await anna.getChat(chat);
    expect(res.status).toBe(200);
    const view = (await res.json()) as { pendingAction: { id: string; status: string } | null };
    expect(view.pendingAction).toMatchObject({ id: action, status: "pending" });
  });

  it("a NUL in a sign-in's email is a bad email (400), not a failed query; the account is not locked", async () => {
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com\u0000", password: "returns-demo" },
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error?: { code?: string } }).error?.code).toBe("invalid_email");
    expect((await Customer.signIn("anna@example.com")).cookie).toMatch(/session_token=/);
  });
});
