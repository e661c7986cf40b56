/**
 * foldLongChat runs after a turn without being awaited (lib/chat/turn.ts), so it must never reject:
 * in Node an unhandled rejection stops the process. A real failure of its first read (the
 * messages table is gone) must come back as "nothing folded" and one log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/db";
import { foldLongChat } from "@/lib/chat/fold";
import { sqliteClient, useTestDatabase } from "../helpers/db";

describe("foldLongChat when the database fails", () => {
  beforeAll(async () => {
    await useTestDatabase({ seed: false });
  });
  afterAll(async () => {
    await closeDb();
  });

  it("resolves false instead of rejecting", async () => {
    sqliteClient().exec("ALTER TABLE messages RENAME TO messages_gone");
    await expect(
      foldLongChat({ chatId: "any-chat", userId: "any-user", summarizedThrough: 0 }),
    ).resolves.toBe(false);
  });
});
