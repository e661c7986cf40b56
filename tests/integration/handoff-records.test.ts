/**
 * What a handoff leaves behind, exactly: the audit event of each step (who, what it superseded,
 * the first reply, the times a release reports), the staff queue's rows, the chat's view, the
 * note in the chat's language, and the refusals by code and message. The flows themselves are in
 * handoff.test.ts; this file pins the records staff and the metrics read. SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { chats, messages } from "@/db/schema";
import {
  getHandoffView,
  handoffNoteMessage,
  listHandoffQueue,
  releaseChat,
  replyAsStaff,
  requestHandoff,
  storeMessageInHandoff,
} from "@/lib/chat/handoff";
import { AppError } from "@/lib/errors";
import { Customer } from "../helpers/chat";
import { userIdOf, useTestDatabase } from "../helpers/db";
import { actionsIn, auditFor } from "../helpers/inspect";

const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 9, minute));

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const { code, message } = error as AppError;
  return { code, message };
}

describe("the records a handoff leaves", () => {
  let anna: Customer;
  let annaId: string;
  let sam: { id: string; name: string };

  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    annaId = await userIdOf("anna@example.com");
    sam = { id: await userIdOf("staff@example.com"), name: "Sam Support" };
  });

  const lastEvent = async (chatId: string, tool: string) =>
    (await auditFor(chatId)).filter((e) => e.tool === tool).at(-1);

  it("the request's event counts what it superseded; asking again records nothing", async () => {
    const chatId = await anna.newChat();
    const turn = await anna.say(
      chatId,
      "Create a return request for order 7718, it arrived damaged",
    );
    expect(turn.status).toBe(200);
    const [pending] = await actionsIn(chatId);
    expect(pending?.status).toBe("pending");

    expect(
      await requestHandoff({ chatId, userId: annaId, toolCallId: "call-1", now: at(0) }),
    ).toEqual({ created: true });
    const event = await lastEvent(chatId, "request_human");
    expect(event).toMatchObject({
      status: "success",
      access: null,
      userId: annaId,
      toolCallId: "call-1",
      arguments: {},
      result: { handoff: "waiting", superseded: 1 },
    });
    expect(event?.at.getTime()).toBe(at(0).getTime());

    expect(await requestHandoff({ chatId, userId: annaId, now: at(1) })).toEqual({
      created: false,
    });
    expect((await auditFor(chatId)).filter((e) => e.tool === "request_human")).toHaveLength(1);
  });

  it("a staff reply's event counts characters, not words, and marks only the first reply", async () => {
    const chatId = await anna.newChat();
    await requestHandoff({ chatId, userId: annaId, now: at(0) });

    const first = await replyAsStaff({ chatId, staff: sam, text: "Привет 👋", now: at(2) });
    expect(first.message).toMatchObject({ role: "staff" });
    expect(first.message.parts).toEqual([
      { type: "data-staff", id: first.message.id, data: { name: "Sam Support" } },
      { type: "text", text: "Привет 👋" },
    ]);
    expect(first.handoff).toEqual({
      status: "active",
      since: at(0).toISOString(),
      staff: { name: "Sam Support" },
    });
    expect(await lastEvent(chatId, "staff:reply_in_chat")).toMatchObject({
      status: "success",
      access: "write",
      userId: sam.id,
      // Eight code points: the emoji is one, though it is two UTF-16 units.
      arguments: { chars: 8 },
      result: { messageId: first.message.id, handoff: "active", firstReply: true },
    });

    const second = await replyAsStaff({ chatId, staff: sam, text: "again", now: at(3) });
    expect(await lastEvent(chatId, "staff:reply_in_chat")).toMatchObject({
      arguments: { chars: 5 },
      result: { messageId: second.message.id, handoff: "active", firstReply: false },
    });
  });

  it("a release's event reports when the handoff was asked for and first answered", async () => {
    const answered = await anna.newChat();
    await requestHandoff({ chatId: answered, userId: annaId, now: at(0) });
    await replyAsStaff({ chatId: answered, staff: sam, text: "hi", now: at(4) });
    expect(await releaseChat({ chatId: answered, staff: sam, now: at(9) })).toEqual({
      handoff: null,
    });
    expect(await lastEvent(answered, "staff:release_chat")).toMatchObject({
      status: "success",
      access: "write",
      userId: sam.id,
      arguments: {},
      result: {
        handoff: "released",
        requestedAt: at(0).toISOString(),
        firstReplyAt: at(4).toISOString(),
      },
    });

    const unanswered = await anna.newChat();
    await requestHandoff({ chatId: unanswered, userId: annaId, now: at(0) });
    await releaseChat({ chatId: unanswered, staff: sam, now: at(9) });
    expect((await lastEvent(unanswered, "staff:release_chat"))?.result).toEqual({
      handoff: "released",
      requestedAt: at(0).toISOString(),
      firstReplyAt: null,
    });
  });

  it("the release's note is in the chat's language, as the request's is", async () => {
    const chatId = await anna.newChat();
    const turn = await anna.say(chatId, "Позовите оператора, пожалуйста");
    expect(turn.status).toBe(200);
    await releaseChat({ chatId, staff: sam });
    const rows = await getDb().select().from(messages).where(eq(messages.chatId, chatId));
    const note = rows.at(-1);
    expect(note?.role).toBe("assistant");
    expect(note?.parts).toEqual([
      { type: "data-handoff", id: note?.id, data: { status: "released" } },
      { type: "text", text: "Наша команда вернула разговор ассистенту." },
    ]);
  });

  it("the note says the same in both languages and both states", () => {
    const text = (lang: "en" | "ru", status: "waiting" | "released") =>
      handoffNoteMessage("m", lang, status).parts.find((p) => p.type === "text");
    expect(text("en", "waiting")).toMatchObject({ text: expect.stringMatching(/^A person/) });
    expect(text("en", "released")).toMatchObject({
      text: "Our team handed this conversation back to the assistant.",
    });
    expect(text("ru", "waiting")).toMatchObject({ text: expect.stringMatching(/^Скоро здесь/) });
    expect(handoffNoteMessage("m", "en", "waiting")).toMatchObject({
      id: "m",
      role: "assistant",
      parts: [{ type: "data-handoff", id: "m", data: { status: "waiting" } }, { type: "text" }],
    });
  });

  it("the chat's view: waiting, then active with the staff name, then none", async () => {
    const chatId = await anna.newChat();
    expect(await getHandoffView(chatId)).toBeNull();
    await requestHandoff({ chatId, userId: annaId, now: at(0) });
    expect(await getHandoffView(chatId)).toEqual({ status: "waiting", since: at(0).toISOString() });
    await replyAsStaff({ chatId, staff: sam, text: "hi", now: at(1) });
    expect(await getHandoffView(chatId)).toEqual({
      status: "active",
      since: at(0).toISOString(),
      staff: { name: "Sam Support" },
    });
    await releaseChat({ chatId, staff: sam, now: at(2) });
    expect(await getHandoffView(chatId)).toBeNull();
  });

  it("the queue: each open handoff with its chat, customer and staff; released ones leave it", async () => {
    const waiting = await anna.newChat();
    const active = await anna.newChat();
    const released = await anna.newChat();
    await getDb().update(chats).set({ title: "Damaged kettle" }).where(eq(chats.id, waiting));
    for (const chatId of [waiting, active, released]) {
      await requestHandoff({ chatId, userId: annaId, now: at(10) });
    }
    await replyAsStaff({ chatId: active, staff: sam, text: "on it", now: at(11) });
    await releaseChat({ chatId: released, staff: sam, now: at(12) });

    const { handoffs } = await listHandoffQueue();
    const row = (chatId: string) => handoffs.find((h) => h.chatId === chatId);
    expect(row(released)).toBeUndefined();
    expect(row(waiting)).toEqual({
      chatId: waiting,
      chatTitle: "Damaged kettle",
      customer: { name: expect.any(String), email: "anna@example.com" },
      status: "waiting",
      since: at(10).toISOString(),
    });
    expect(row(active)).toMatchObject({
      chatId: active,
      customer: { email: "anna@example.com" },
      status: "active",
      since: at(10).toISOString(),
      staff: { name: "Sam Support" },
    });
  });

  it("refuses with the contract's codes and messages", async () => {
    const plain = await anna.newChat();
    expect(await refusal(replyAsStaff({ chatId: randomUUID(), staff: sam, text: "x" }))).toEqual({
      code: "not_found",
      message: "No such chat.",
    });
    expect(await refusal(releaseChat({ chatId: randomUUID(), staff: sam }))).toEqual({
      code: "not_found",
      message: "No such chat.",
    });
    const notHandedOff = {
      code: "not_handed_off",
      message: "This chat is not waiting for a person.",
    };
    expect(await refusal(replyAsStaff({ chatId: plain, staff: sam, text: "x" }))).toEqual(
      notHandedOff,
    );
    expect(await refusal(releaseChat({ chatId: plain, staff: sam }))).toEqual(notHandedOff);
    // Neither refusal wrote anything.
    expect(await auditFor(plain)).toEqual([]);
  });

  it("a customer's message in handoff: stored with the note; refused and not stored when the turn lost its lease", async () => {
    const chatId = await anna.newChat();
    const userMessage = (text: string) => ({
      id: randomUUID(),
      role: "user" as const,
      parts: [{ type: "text" as const, text }],
    });
    // Not handed off: nothing stored, the assistant answers as usual.
    expect(
      await storeMessageInHandoff({
        chatId,
        userMessage: userMessage("hello"),
        lang: "en",
        claim: async () => true,
      }),
    ).toBeNull();

    await requestHandoff({ chatId, userId: annaId });
    const count = async () =>
      (await getDb().select().from(messages).where(eq(messages.chatId, chatId))).length;
    const before = await count();
    expect(
      await refusal(
        storeMessageInHandoff({
          chatId,
          userMessage: userMessage("lost"),
          lang: "en",
          claim: async () => false,
        }),
      ),
    ).toEqual({ code: "turn_in_progress", message: "Another message is being sent." });
    expect(await count()).toBe(before);

    const note = await storeMessageInHandoff({
      chatId,
      userMessage: userMessage("still there?"),
      lang: "ru",
      claim: async () => true,
    });
    expect(note?.parts[0]).toEqual({
      type: "data-handoff",
      id: note?.id,
      data: { status: "waiting" },
    });
    expect(await count()).toBe(before + 2);
  });

  it("the answer in handoff is the stored note, streamed whole, in the conversation's language", async () => {
    const chatId = await anna.newChat();
    expect((await anna.say(chatId, "Позовите оператора, пожалуйста")).status).toBe(200);
    // No letters, so no language of its own: the conversation so far is Russian.
    const turn = await anna.say(chatId, "  8041?  ");
    expect(turn.status).toBe(200);
    expect(turn.errors).toEqual([]);
    const rows = await getDb().select().from(messages).where(eq(messages.chatId, chatId));
    const [user, note] = rows.slice(-2);
    expect(user?.role).toBe("user");
    expect(user?.parts).toEqual([{ type: "text", text: "8041?" }]);
    expect(note?.role).toBe("assistant");
    // The streamed message is the stored one: same id, same parts, then a finished stream.
    expect(turn.message?.id).toBe(note?.id);
    expect(turn.message?.parts).toEqual([
      { type: "data-handoff", id: note?.id, data: { status: "waiting" } },
      expect.objectContaining({ type: "text", text: expect.stringMatching(/^Скоро здесь/) }),
    ]);
    expect(turn.chunks.map((c) => c.type)).toEqual([
      "start",
      "data-handoff",
      "text-start",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(turn.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });
});
