/**
 * The admission line of chat turns (lib/chat/admission.ts) on its own: first come, first served;
 * a waiter leaves the line when its wait runs out or its client goes away, without keeping its
 * place; a slot is freed once however often it is released; while the process is saturated, a
 * turn waits (or is refused) even below the count. The clock is vitest's fake one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type LoadSignal, loopLateness, TurnAdmission, type TurnSlot } from "@/lib/chat/admission";
import { AppError } from "@/lib/errors";

const overloaded = (p: Promise<unknown>) =>
  expect(p).rejects.toSatisfy(
    (e: unknown) => e instanceof AppError && e.code === "overloaded" && e.status === 503,
  );

describe("TurnAdmission", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("admits up to capacity, queues up to the line's length, refuses the rest with Retry-After", async () => {
    const a = new TurnAdmission({ capacity: 2, queue: 1, waitMs: 10_000 });
    const one = await a.enter();
    await a.enter();
    const waiting = a.enter();
    expect(a.load).toEqual({ active: 2, waiting: 1 });
    const refused = a.enter().catch((e: AppError) => e);
    const err = await refused;
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).headers["Retry-After"]).toMatch(/^\d+$/);
    expect((err as AppError).details.retryAfterSeconds).toBe(
      Number((err as AppError).headers["Retry-After"]),
    );
    one.release();
    await expect(waiting).resolves.toBeDefined();
    expect(a.load).toEqual({ active: 2, waiting: 0 });
  });

  it("hands a freed slot to the first in line, in order", async () => {
    const a = new TurnAdmission({ capacity: 1, queue: 3, waitMs: 10_000 });
    const held = await a.enter();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      a.enter().then((slot) => {
        order.push(n);
        return slot;
      }),
    );
    held.release();
    let slot: TurnSlot = await waiters[0]!;
    slot.release();
    slot = await waiters[1]!;
    slot.release();
    slot = await waiters[2]!;
    expect(order).toEqual([1, 2, 3]);
    expect(a.load).toEqual({ active: 1, waiting: 0 });
    slot.release();
    expect(a.load).toEqual({ active: 0, waiting: 0 });
  });

  it("a waiter whose wait runs out is refused and gives its place up", async () => {
    const a = new TurnAdmission({ capacity: 1, queue: 1, waitMs: 5_000 });
    const held = await a.enter();
    const waiting = a.enter();
    const check = overloaded(waiting);
    await vi.advanceTimersByTimeAsync(5_000);
    await check;
    expect(a.load).toEqual({ active: 1, waiting: 0 });
    // Its place is free again: the next one waits instead of being refused.
    const next = a.enter();
    held.release();
    await expect(next).resolves.toBeDefined();
  });

  it("a waiter whose client went away leaves the line", async () => {
    const a = new TurnAdmission({ capacity: 1, queue: 1, waitMs: 60_000 });
    const held = await a.enter();
    const client = new AbortController();
    const waiting = a.enter(client.signal);
    const check = overloaded(waiting);
    client.abort();
    await check;
    expect(a.load).toEqual({ active: 1, waiting: 0 });
    held.release();
    expect(a.load).toEqual({ active: 0, waiting: 0 });
  });

  it("releasing a slot twice frees it once", async () => {
    const a = new TurnAdmission({ capacity: 2, queue: 0, waitMs: 1_000 });
    const one = await a.enter();
    await a.enter();
    one.release();
    one.release();
    expect(a.load).toEqual({ active: 1, waiting: 0 });
    await a.enter();
    await overloaded(a.enter());
  });

  describe("while the process is saturated (issue 25, past capacity)", () => {
    /** A load signal the test sets by hand: saturated or not, and relief on demand. */
    function load() {
      let busy = false;
      let relief = () => {};
      const signal: LoadSignal = {
        saturated: () => busy,
        onRelief: (fn) => {
          relief = fn;
        },
      };
      return {
        signal,
        set: (b: boolean) => {
          busy = b;
          if (!b) relief();
        },
      };
    }

    it("a new turn waits in line below the count; one turn always runs; relief starts the line", async () => {
      const l = load();
      const a = new TurnAdmission({ capacity: 8, queue: 2, waitMs: 10_000 }, l.signal);
      l.set(true);
      // Nothing running: the first turn starts whatever the load, so the process makes progress.
      const first = await a.enter();
      const second = a.enter();
      const third = a.enter();
      expect(a.load).toEqual({ active: 1, waiting: 2 });
      // The line is full: refused at once with 503 overloaded, never left to time out later.
      await overloaded(a.enter());
      l.set(false);
      await expect(second).resolves.toBeDefined();
      await expect(third).resolves.toBeDefined();
      expect(a.load).toEqual({ active: 3, waiting: 0 });
      first.release();
      expect(a.load).toEqual({ active: 2, waiting: 0 });
    });

    it("a freed slot is not handed on while saturated, but the last running turn's is", async () => {
      const l = load();
      const a = new TurnAdmission({ capacity: 8, queue: 4, waitMs: 10_000 }, l.signal);
      const one = await a.enter();
      const two = await a.enter();
      l.set(true);
      const waiting = a.enter();
      one.release();
      expect(a.load).toEqual({ active: 1, waiting: 1 });
      two.release();
      await expect(waiting).resolves.toBeDefined();
      expect(a.load).toEqual({ active: 1, waiting: 0 });
    });

    it("a turn kept waiting by the load is refused when its wait runs out", async () => {
      const l = load();
      const a = new TurnAdmission({ capacity: 8, queue: 4, waitMs: 5_000 }, l.signal);
      await a.enter();
      l.set(true);
      const check = overloaded(a.enter());
      await vi.advanceTimersByTimeAsync(5_000);
      await check;
      expect(a.load).toEqual({ active: 1, waiting: 0 });
    });

    it("the event loop's lateness is the default signal: a loop blocked past the bound is saturated", async () => {
      // The wall clock, which the fake timers move (setSystemTime), in place of performance.now().
      const signal = loopLateness(() => Date.now());
      let relieved = 0;
      signal.onRelief(() => relieved++);
      expect(signal.saturated()).toBe(false);
      // The sampling timer fires 2 s late, as behind a loop busy that long.
      vi.advanceTimersByTime(50);
      vi.setSystemTime(Date.now() + 2_000);
      vi.advanceTimersByTime(50);
      expect(signal.saturated()).toBe(true);
      // On time again: the lateness decays below the bound, and relief is heard once.
      for (let i = 0; i < 10; i++) vi.advanceTimersByTime(100);
      expect(signal.saturated()).toBe(false);
      expect(relieved).toBe(1);
    });
  });
});
