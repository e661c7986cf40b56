/**
 * Following a handed-off chat (lib/chat-client/handoff.ts), shared by the chat page and the
 * terminal: polls while the chat is handed off, hands over every snapshot, stops after the one
 * that says it was handed back, backs off on errors, gives up on a 404, and stop() ends it.
 */
import { describe, expect, it } from "vitest";
import type { ApiResult } from "@/lib/chat-client/errors";
import { announcedHandoff, followHandoff, handoffPollDelayMs } from "@/lib/chat-client/handoff";
import type { ChatSnapshot } from "@/lib/chat-client/schemas";

const snap = (handoff: "waiting" | "active" | null, n: number): ApiResult<ChatSnapshot> => ({
  ok: true,
  data: {
    chat: {
      id: "c",
      createdAt: "2026-01-01T00:00:00Z",
      title: null,
      handoff: handoff && { status: handoff, since: "2026-01-01T00:00:00Z" },
    },
    messages: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, role: "user", parts: [] })),
    pendingAction: null,
  },
});
const fail = (status: number): ApiResult<ChatSnapshot> => ({ ok: false, status, error: null });

async function run(answers: ApiResult<ChatSnapshot>[]) {
  const seen: (string | null)[] = [];
  const delays: number[] = [];
  let loads = 0;
  await new Promise<void>((resolve) => {
    followHandoff({
      load: async () => {
        const r = answers[loads++];
        if (!r) throw new Error("polled after the end of the script");
        if (loads === answers.length) setTimeout(resolve, 20);
        return r;
      },
      onSnapshot: (s) => seen.push(s.chat.handoff?.status ?? null),
      delayMs: (failures) => {
        delays.push(failures);
        return 0;
      },
    });
  });
  return { seen, delays, loads };
}

describe("following a handed-off chat", () => {
  it("polls until the chat is handed back, reporting each snapshot", async () => {
    const r = await run([snap("waiting", 2), snap("active", 3), snap(null, 4)]);
    expect(r.seen).toEqual(["waiting", "active", null]);
    expect(r.loads).toBe(3);
  });
  it("backs off on errors and gives up on a 404", async () => {
    const r = await run([fail(0), fail(503), snap("waiting", 1), fail(404)]);
    expect(r.seen).toEqual(["waiting"]);
    expect(r.delays).toEqual([0, 1, 2, 0]);
  });
  it("stop() ends it before the next poll", async () => {
    let loads = 0;
    const stop = followHandoff({
      load: async () => {
        loads++;
        return snap("waiting", 1);
      },
      onSnapshot: () => {},
      delayMs: () => 10,
    });
    stop();
    await new Promise((r) => setTimeout(r, 40));
    expect(loads).toBe(0);
  });
  it("spaces polls 2 s apart, up to 30 s after failures", () => {
    expect(handoffPollDelayMs(0)).toBe(2000);
    expect(handoffPollDelayMs(10)).toBe(30_000);
  });
  it("reads the handoff a stream announced from its last data-handoff part", () => {
    expect(announcedHandoff([{ type: "text" }])).toBeNull();
    expect(
      announcedHandoff([
        { type: "data-handoff", data: { status: "waiting" } },
        { type: "data-handoff", data: { status: "released" } },
      ]),
    ).toBe("released");
    expect(announcedHandoff([{ type: "data-handoff", data: { status: "nope" } }])).toBeNull();
  });
});
