/**
 * Past capacity: with room for one running turn and one waiting, a third turn
 * is refused at the door with 503 `overloaded` and Retry-After, nothing of it stored and no model
 * called, while the one in line runs to the end once the first is done. The turns are held open
 * by the loopback model's gate, not by a clock: nothing here depends on timing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as sendRoute } from "@/app/api/chats/[id]/messages/route";
import { POST as createChatRoute } from "@/app/api/chats/route";
import { runConsole } from "@/cli/chat/session";
import { createApiClient } from "@/lib/api-client";
import { turnAdmission } from "@/lib/chat/admission";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { BASE, call } from "../helpers/http";
import { messageCount } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";
import { readTurn } from "../helpers/stream";

/** A promise the test resolves when it wants the model to answer. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

/** The terminal client's HTTP, answered by the real route handlers in this process. */
function handlersFetch(cookie: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    headers.set("cookie", cookie);
    // What an HTTP server would see: the client's own host (the origin check compares them).
    headers.set("host", url.host);
    const req = new Request(url, { ...init, headers });
    const turn = /^\/api\/chats\/([^/]+)\/messages$/.exec(url.pathname);
    if (turn) return sendRoute(req, { params: Promise.resolve({ id: turn[1]! }) });
    if (url.pathname === "/api/chats") return createChatRoute(req, { params: Promise.resolve({}) });
    throw new Error(`no handler here for ${url.pathname}`);
  };
}

/** One line typed into `npm run chat`; what it printed. */
async function consoleSays(cookie: string, line: string): Promise<string> {
  let out = "";
  await runConsole({
    client: createApiClient({ baseUrl: BASE, fetch: handlersFetch(cookie) }),
    io: {
      write: (text) => {
        out += text;
      },
      lines: (async function* () {
        yield line;
      })(),
    },
    role: "customer",
  });
  return out;
}

/** Waiting for the server to reach a state is not a timed assertion: the bound is generous. */
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 20_000, interval: 10 });

describe("chat turns past the instance's capacity", () => {
  let server: OpenAIServer;
  let stopModel: () => Promise<void>;
  let anna: Customer;
  beforeAll(async () => {
    ({ server, stop: stopModel } = await useLoopbackModel({
      CHAT_TURN_CAPACITY: "1",
      CHAT_TURN_QUEUE: "1",
      // Longer than any test here: a waiter leaves the line only by being admitted.
      CHAT_TURN_QUEUE_WAIT_SECONDS: "600",
    }));
    anna = await Customer.signIn("anna@example.com");
  });
  afterAll(async () => {
    await stopModel();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  it("queues the next turn, refuses the one after with 503 overloaded, then runs the queued one", async () => {
    const [first, second, third] = [
      await anna.newChat(),
      await anna.newChat(),
      await anna.newChat(),
    ];
    const held = gate();
    server.enqueue(
      { type: "text", text: "First answer.", gate: held.promise },
      { type: "text", text: "Second answer." },
    );

    const running = anna.post(first, { text: "Hello" }).then(readTurn);
    await until(() => expect(server.requests).toHaveLength(1));
    const queued = anna.post(second, { text: "Hello again" });
    await until(() => expect(turnAdmission().load).toEqual({ active: 1, waiting: 1 }));

    const refused = await anna.post(third, { text: "Anyone there?" });
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({
      error: {
        code: "overloaded",
        message: expect.stringMatching(/try again/i),
        retryAfterSeconds: retryAfter,
      },
    });
    // Refused at the door: not stored, not sent to the model.
    expect(await messageCount(third)).toBe(0);
    expect(server.requests).toHaveLength(1);
    // The terminal client says so in the customer's language, with the wait.
    expect(await consoleSays(anna.cookie, "Where is my order 8041?")).toMatch(
      /more conversations than it can answer right now; your message was not sent\. Send it again in \d+ seconds?\./,
    );
    expect(await consoleSays(anna.cookie, "Где мой заказ 8041?")).toMatch(
      /больше разговоров, чем он успевает вести; ваше сообщение не отправлено\. Отправьте его снова через \d+ секунд/,
    );
    expect(server.requests).toHaveLength(1);

    held.open();
    expect((await running).text).toBe("First answer.");
    const second_ = await readTurn(await queued);
    expect(second_.status).toBe(200);
    expect(second_.errors).toEqual([]);
    expect(second_.text).toBe("Second answer.");
    expect(await messageCount(second)).toBe(2);
    await until(() => expect(turnAdmission().load).toEqual({ active: 0, waiting: 0 }));
  });

  it("a turn that fails, or is refused after taking its slot (409, 401), gives the slot back", async () => {
    // The model fails: the turn ends with an error part and frees its slot.
    server.enqueue({ type: "error", status: 500 });
    const failed = await anna.say(await anna.newChat(), "Hello");
    expect(failed.errors).not.toEqual([]);
    await until(() => expect(turnAdmission().load).toEqual({ active: 0, waiting: 0 }));

    // A proposal waits in this chat: the lease refuses the next message (409) after admission.
    const chat = await anna.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [{ name: "create_return_request", arguments: { orderId: "7718", reason: "damaged" } }],
    });
    const proposed = await anna.say(chat, "Return 7718, it arrived damaged");
    expect(proposed.status).toBe(200);
    const pending = await anna.post(chat, { text: "Hello?" });
    expect(pending.status).toBe(409);
    expect(turnAdmission().load).toEqual({ active: 0, waiting: 0 });

    // The line comes before the session: an anonymous request takes a slot, is refused, gives it back.
    const anonymous = await call(
      sendRoute,
      `/api/chats/${chat}/messages`,
      { id: chat },
      {
        body: { text: "Hello?" },
      },
    );
    expect(anonymous.status).toBe(401);
    expect(turnAdmission().load).toEqual({ active: 0, waiting: 0 });

    // Every slot came back: the next turn runs rather than being refused.
    server.enqueue({ type: "text", text: "Still here." });
    const next = await anna.say(await anna.newChat(), "Hello");
    expect(next.text).toBe("Still here.");
  });
});
