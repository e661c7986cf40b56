/**
 * Following a refund after Confirm (lib/chat-client/follow.ts), shared by the card and the
 * terminal: polls until the note is settled and then stops, backs off, never polls a settled
 * note, survives errors, gives up on a 404, and stop() ends it.
 */
import { describe, expect, it } from "vitest";
import type { ApiResult } from "@/lib/api-client";
import {
  followDelayMs,
  followOutcome,
  isUnsettled,
  type OutcomeNote,
} from "@/lib/chat-client/follow";

const note = (text: string, settled: boolean): OutcomeNote => ({ tone: "neutral", text, settled });
const ok = (n: OutcomeNote): ApiResult<{ view: { outcome: OutcomeNote } }> => ({
  ok: true,
  data: { view: { outcome: n } } as never,
});

/** Runs a follow against scripted answers (no waiting: every delay is 0). */
async function follow(answers: ApiResult<never>[]) {
  const seen: string[] = [];
  const delays: number[] = [];
  let loads = 0;
  await new Promise<void>((resolve) => {
    const stop = followOutcome({
      load: async () => {
        const r = answers[loads++];
        if (!r) throw new Error("polled after the end of the script");
        if (loads === answers.length) setTimeout(resolve, 20);
        return r as never;
      },
      onNote: (n) => seen.push(n.text),
      delayMs: (polls) => {
        delays.push(polls);
        return 0;
      },
    });
    void stop;
  });
  return { seen, loads, delays };
}

describe("following an unsettled outcome", () => {
  it("polls until the note settles, reporting each note, then stops", async () => {
    const r = await follow([
      ok(note("processing", false)),
      { ok: false, status: 0, error: null },
      { ok: false, status: 503, error: null },
      ok(note("refunded", true)),
    ] as never);
    expect(r.seen).toEqual(["processing", "refunded"]);
    expect(r.loads).toBe(4);
    expect(r.delays).toEqual([0, 1, 2, 3]);
  });

  it("gives up on a 404 (the action is gone)", async () => {
    const r = await follow([{ ok: false, status: 404, error: null }] as never);
    expect(r.loads).toBe(1);
    expect(r.seen).toEqual([]);
  });

  it("stop() before the first poll means no request at all", async () => {
    let loads = 0;
    const stop = followOutcome({
      load: async () => {
        loads++;
        return ok(note("x", true)) as never;
      },
      onNote: () => {},
      delayMs: () => 0,
    });
    stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(loads).toBe(0);
  });

  it("backs off from 1 s, doubling, to at most 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(followDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it("only an unsettled note is followed", () => {
    expect(isUnsettled(note("processing", false))).toBe(true);
    expect(isUnsettled(note("refunded", true))).toBe(false);
    expect(isUnsettled(null)).toBe(false);
    expect(isUnsettled(undefined)).toBe(false);
  });
});
