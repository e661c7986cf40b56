/**
 * A chat's stored messages, at the query layer: appended in order with consecutive seqs after
 * what is there, each keeping the model, prompt version and usage that produced it (the audit and
 * the eval read them back), the title set once from the first text, and the count after a seq
 * that decides when a long chat is folded.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import {
  appendMessages,
  countMessages,
  createChat,
  getChatForUser,
  listMessages,
} from "@/db/queries/chats";
import { user } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";

let anna: string;
beforeAll(async () => {
  await useTestDatabase();
  const [row] = await getDb().select().from(user).where(eq(user.email, "anna@example.com"));
  anna = row!.id;
});

const text = (t: string) => [{ type: "text", text: t }];

describe("appendMessages", () => {
  it("numbers messages after the last one and keeps who produced each", async () => {
    const chat = await createChat({ userId: anna });
    const usage = { inputTokens: 120, outputTokens: 30 };
    await appendMessages({
      chatId: chat.id,
      title: "Where is my order?",
      items: [
        { id: randomUUID(), role: "user", parts: text("Where is my order?") },
        {
          id: randomUUID(),
          role: "assistant",
          parts: text("It ships tomorrow."),
          model: "gpt-test",
          promptVersion: "prompt-7",
          usage,
        },
      ],
    });
    await appendMessages({
      chatId: chat.id,
      title: "Something else",
      items: [{ id: randomUUID(), role: "staff", parts: text("Hello from staff.") }],
    });

    const rows = await listMessages({ chatId: chat.id });
    expect(rows.map((m) => [m.seq, m.role, m.model, m.promptVersion, m.usage])).toEqual([
      [1, "user", null, null, null],
      [2, "assistant", "gpt-test", "prompt-7", usage],
      [3, "staff", null, null, null],
    ]);
    expect(rows[2]!.parts).toEqual(text("Hello from staff."));
    // The first title stays.
    expect((await getChatForUser({ id: chat.id, userId: anna }))?.title).toBe("Where is my order?");
  });

  it("counts the messages after a seq without reading them", async () => {
    const chat = await createChat({ userId: anna });
    expect(await countMessages({ chatId: chat.id })).toBe(0);
    await appendMessages({
      chatId: chat.id,
      items: ["one", "two", "three", "four"].map((t) => ({
        id: randomUUID(),
        role: "user" as const,
        parts: text(t),
      })),
    });
    expect(await countMessages({ chatId: chat.id })).toBe(4);
    expect(await countMessages({ chatId: chat.id, afterSeq: 1 })).toBe(3);
    expect(await countMessages({ chatId: chat.id, afterSeq: 4 })).toBe(0);
  });
});
