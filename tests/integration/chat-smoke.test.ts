import { beforeAll, describe, expect, it } from "vitest";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { pendingActionPart, toolCalls } from "../helpers/stream";

describe("chat turn smoke", () => {
  let anna: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
  });

  it("answers an order status question from the tool", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(chat, "Where is order 8041?");
    expect(toolCalls(turn.message).map((c) => c.tool)).toEqual(["get_order_status"]);
    expect(turn.text).toMatch(/8041/);
  });

  it("proposes a return and confirms it", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(
      chat,
      "Create a return request for order 7718. The item arrived damaged.",
    );
    const part = pendingActionPart(turn.message);
    expect(part).toBeDefined();
    const blocked = await anna.post(chat, { text: "Where is order 8041?" });
    expect(blocked.status).toBe(409);
    const res = await anna.confirm(part!.data.id);
    const body = await res.json();
    expect(res.status).toBe(200);
    const view = await (await anna.getChat(chat)).json();
  });
});
