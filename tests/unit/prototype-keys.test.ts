/**
 * The class of bug behind a tool name like "constructor": every table looked up with text from the model, the
 * browser or the database answers only for its own keys. Names of Object.prototype members
 * must behave like any other unknown key (a fallback), never reach a prototype method.
 */
import { describe, expect, it } from "vitest";
import { rowToUIMessage } from "@/lib/chat/persist";
import { describeOutcome } from "@/lib/chat-client/action-view";
import { toolNote } from "@/lib/chat-client/messages";
import { conversationText } from "@/lib/i18n/messages";
import { own } from "@/lib/own";
import { PROTOTYPE_TOOL_NAMES } from "../system/hostile/cases-model";

describe.each(PROTOTYPE_TOOL_NAMES)("the key %s", (key) => {
  it("is not in a table that does not have it", () => {
    expect(own({ a: 1 }, key)).toBeUndefined();
  });

  it("gets no tool note on the chat page", () => {
    const part = {
      type: `tool-${key}`,
      toolCallId: "c1",
      state: "output-error",
      input: { orderId: "7718" },
      errorText: "rejected",
    };
    expect(toolNote(part as unknown as Parameters<typeof toolNote>[0])).toBeNull();
  });

  it("gets the generic status word on a confirm card", () => {
    // The card's own words come from the tool's describe() on the server (a Map lookup); the
    // only text-keyed table left on the card is the status word of an already decided action.
    // A status is typed, but it arrives from the server as text: the cast is the attack.
    const decided = (status: string) =>
      describeOutcome(
        { kind: "already_decided", status: status as "pending" },
        conversationText("en"),
      ).text;
    expect(decided(key)).toBe(decided("some_unknown_status"));
  });

  it("is kept as an ordinary part type when a stored message is read back", () => {
    const msg = rowToUIMessage({
      id: "m1",
      role: "assistant",
      parts: [{ type: key }, { type: "text", text: "hi" }],
    } as unknown as Parameters<typeof rowToUIMessage>[0]);
    expect(msg.parts).toHaveLength(2);
  });
});
