/**
 * The admission line of chat turns (lib/chat/admission.ts) on its own: first come, first served;
 * a waiter leaves the line when its wait runs out or its client goes away, without keeping its
 * place; a slot is freed once however often it is released. The clock is vitest's fake one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnAdmission, type TurnSlot } from "@/lib/chat/admission";
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

  it("the line follows the measured pace: it refuses only a wait longer than allowed", async () => {
    const a = new TurnAdmission({ capacity: 1, queue: 1_000, waitMs: 60_000 });
    let slot = await a.enter();
    // No pace measured yet: the line takes whoever comes, up to its bound (30 would be 150 s at
    // the first guess of a turn's length).
    const line = Array.from({ length: 30 }, () => a.enter());
    expect(a.load).toEqual({ active: 1, waiting: 30 });
    // Turns finish a second apart while others wait: the line moves at one a second.
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      slot.release();
      slot = await line[i]!;
    }
    expect(a.load).toEqual({ active: 1, waiting: 10 });
    // At that pace the 60th in line waits 60 s, which the wait allows; the 61st is refused.
    const more = Array.from({ length: 50 }, () => a.enter());
    expect(a.load).toEqual({ active: 1, waiting: 60 });
    const err = await a.enter().catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("overloaded");
    expect((err as AppError).headers["Retry-After"]).toBe("60");
    expect(a.load).toEqual({ active: 1, waiting: 60 });
    void more;
  });

  it("slow turns shorten the line: the wait at their pace decides", async () => {
    const a = new TurnAdmission({ capacity: 1, queue: 1_000, waitMs: 30_000 });
    let slot = await a.enter();
    const line = Array.from({ length: 3 }, () => a.enter());
    // Turns finish ten seconds apart while others wait.
    for (let i = 0; i < 2; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      slot.release();
      slot = await line[i]!;
    }
    expect(a.load).toEqual({ active: 1, waiting: 1 });
    // The 2nd and 3rd in line would wait 20 and 30 s (allowed), the 4th 40 s (refused).
    const admitted = [a.enter(), a.enter()];
    await overloaded(a.enter());
    expect(a.load).toEqual({ active: 1, waiting: 3 });
    void admitted;
  });

  it("the limit grows while turns wait and the loop has room, up to capacity, and shrinks back to its start once the loop is saturated", async () => {
    let busy = 0.2;
    const a = new TurnAdmission({ capacity: 6, start: 2, queue: 100, waitMs: 600_000 }, () => busy);
    const running: TurnSlot[] = [await a.enter(), await a.enter()];
    const admitted: Promise<TurnSlot>[] = Array.from({ length: 20 }, () => a.enter());
    for (const p of admitted) void p.then((slot) => running.push(slot));
    expect(a.currentLimit).toBe(2);
    expect(a.load).toEqual({ active: 2, waiting: 20 });
    // Each release a quarter second apart, with the loop mostly idle: one more runs each time.
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(300);
      running.shift()!.release();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(a.currentLimit).toBe(6);
    expect(a.load.active).toBe(6);
    // Saturated: each release lowers the limit, and the freed slot is not passed on.
    busy = 0.97;
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(300);
      running.shift()!.release();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(a.currentLimit).toBe(2);
    expect(a.load.active).toBe(2);
    expect(a.load.waiting).toBeGreaterThan(0);
  });

  it("does not adapt when the start is the capacity: a fixed limit stays fixed", async () => {
    const a = new TurnAdmission({ capacity: 2, queue: 10, waitMs: 600_000 }, () => 0);
    const held = [await a.enter(), await a.enter()];
    const waiting = [a.enter(), a.enter()];
    await vi.advanceTimersByTimeAsync(300);
    held[0]!.release();
    await waiting[0];
    expect(a.currentLimit).toBe(2);
    expect(a.load).toEqual({ active: 2, waiting: 1 });
  });
});
