/**
 * The failure paths that used to log whole AI SDK errors (whose
 * requestBodyValues hold the prompt: the customer's messages, order items, payment label and
 * delivery note) log only an error's name, code and status, as JSON lines with a level and the
 * request's id. Everything the server writes to its log, and to the console, is captured while
 * a provider answers 500, a stream is cut, and a triage model call fails.
 */
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as triageRoute } from "@/app/api/staff/chats/[id]/triage/route";
import { getDb, one } from "@/db";
import { orders } from "@/db/schema";
import { setLogDestination } from "@/lib/log";
import { Customer } from "../helpers/chat";
import { call, signIn } from "../helpers/http";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";

const API_KEY = "sk-loopback-SECRET-9f3a2c";
const FIRST = "Where is order 9307? Call me on 555-0199 about the parcel";
const SECOND = "Please also tell me about my coffee grinder order";
const THIRD = "Is anybody there? My neighbour Olga can sign for it";

describe("server logs hold no customer data", () => {
  let server: OpenAIServer;
  let stopModel: () => Promise<void>;
  let anna: Customer;
  let staff: string;
  const lines: string[] = [];
  const consoleOut: string[] = [];
  beforeAll(async () => {
    ({ server, stop: stopModel } = await useLoopbackModel({ OPENAI_API_KEY: API_KEY }));
    anna = await Customer.signIn("anna@example.com");
    staff = await signIn("staff@example.com");
    setLogDestination(
      new Writable({
        write(chunk, _enc, done) {
          lines.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      }),
    );
    for (const level of ["error", "warn", "log", "info"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        consoleOut.push(
          args
            .map((a) =>
              a instanceof Error
                ? `${a.stack} ${JSON.stringify(a)}`
                : typeof a === "string"
                  ? a
                  : JSON.stringify(a),
            )
            .join(" "),
        );
      });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    setLogDestination(undefined);
    await stopModel();
  });

  it("logs a provider 500, a cut stream and a failed triage by name, code, status and request id", async () => {
    const chat = await anna.newChat();
    // A good turn first, so the next prompts carry order 9307's delivery note and items.
    server.enqueue(
      { type: "tool-calls", calls: [{ name: "get_order_status", arguments: { orderId: "9307" } }] },
      { type: "text", text: "Order 9307 was delivered." },
    );
    expect((await anna.say(chat, FIRST)).errors).toEqual([]);

    server.enqueue({ type: "error", status: 500, message: "upstream exploded" });
    expect((await anna.say(chat, SECOND)).errors).toHaveLength(1);

    server.enqueue({ type: "cut", text: "Let me check" });
    expect((await anna.say(chat, THIRD)).errors).toHaveLength(1);

    server.enqueue({ type: "error", status: 500, message: "upstream exploded" });
    const triage = await call(
      triageRoute,
      `/api/staff/chats/${chat}/triage`,
      { id: chat },
      { cookie: staff, method: "POST" },
    );
    expect(triage.status).toBe(502);
    // The prompts really carried what must not be logged.
    const note = (await getDb().select().from(orders).where(eq(orders.id, "9307")).then(one))
      .deliveryNote!;
    expect(JSON.stringify(server.requests.at(-2)!.body)).toContain(note.slice(0, 20));

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const failures = parsed.filter((l) => l.level === "error");
    expect(failures.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["model error", "chat turn failed", "triage model call failed"]),
    );
    for (const l of failures) {
      expect(typeof l.requestId).toBe("string");
      expect(Object.keys(l.err as object).sort()).toEqual(expect.arrayContaining(["name"]));
      for (const k of Object.keys(l.err as object)) expect(["name", "code", "status"]).toContain(k);
    }

    const everything = [...lines, ...consoleOut].join("\n");
    for (const secret of [
      FIRST,
      SECOND,
      THIRD,
      "555-0199",
      "Olga",
      note,
      note.slice(0, 30),
      "anna@example.com",
      API_KEY,
      "upstream exploded",
    ])
      expect(everything, `the log holds "${secret}"`).not.toContain(secret);
  });
});
