/**
 * request_human with a hosted model (a loopback server speaking Chat Completions): the tool is
 * offered, calling it hands the chat off with no confirmation, a proposal made in the same
 * response is superseded, a failed turn hands nothing off, and in handoff the model is not
 * called at all. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { actionsIn, auditStatuses } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";

describe("request_human with an OpenAI-compatible model", () => {
  let server: OpenAIServer;
  let stopModel: () => Promise<void>;
  let anna: Customer;
  beforeAll(async () => {
    ({ server, stop: stopModel } = await useLoopbackModel());
    anna = await Customer.signIn("anna@example.com");
  });
  afterAll(async () => {
    await stopModel();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  const handoffOf = async (chatId: string) =>
    ((await (await anna.getChat(chatId)).json()) as { chat: { handoff: unknown } }).chat.handoff;

  it("offers the tool; calling it hands off, and then the model is not called", async () => {
    server.enqueue({ type: "tool-calls", calls: [{ name: "request_human", arguments: {} }] });
    const chatId = await anna.newChat();
    const t = await anna.say(chatId, "Get me a manager");
    expect(t.text).toContain("A person from our team will reply");
    const offered = (server.requests[0]!.body.tools ?? []) as { function: { name: string } }[];
    expect(offered.map((x) => x.function.name)).toContain("request_human");
    // The loop stopped at the call: one model request.
    expect(server.requests).toHaveLength(1);
    expect(await handoffOf(chatId)).toMatchObject({ status: "waiting" });
    expect(await auditStatuses(chatId)).toContain("request_human:success");

    server.requests.length = 0;
    const next = await anna.say(chatId, "Hello? Where is order 8041?");
    expect(next.text).toContain("A person from our team will reply");
    expect(server.requests).toHaveLength(0);
  });

  it("a proposal made in the same response is superseded by the handoff", async () => {
    server.enqueue({
      type: "tool-calls",
      calls: [
        {
          name: "create_return_request",
          arguments: { orderId: "7718", reason: "damaged" },
        },
        { name: "request_human", arguments: {} },
      ],
    });
    const chatId = await anna.newChat();
    const t = await anna.say(chatId, "Return 7718, it is damaged, and I want a human");
    expect(t.status).toBe(200);
    const actions = await actionsIn(chatId);
    expect(actions.map((a) => [a.status, a.errorCode])).toEqual([["superseded", "handoff"]]);
    expect(await handoffOf(chatId)).toMatchObject({ status: "waiting" });
    const view = (await (await anna.getChat(chatId)).json()) as { pendingAction: unknown };
    expect(view.pendingAction).toBeNull();
  });

  it("a turn that fails after request_human hands nothing off", async () => {
    server.enqueue({ type: "cut", text: "", calls: [{ name: "request_human", arguments: {} }] });
    const chatId = await anna.newChat();
    const t = await anna.say(chatId, "human please");
    expect(t.errors.length).toBeGreaterThan(0);
    expect(await handoffOf(chatId)).toBeNull();
    expect(await auditStatuses(chatId)).not.toContain("request_human:success");
  });
});
