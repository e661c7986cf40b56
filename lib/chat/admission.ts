/**
 * Admission of chat turns: a limit of turns run at once in this process, and the rest wait in line
 * (first come, first served) for at most CHAT_TURN_QUEUE_WAIT_SECONDS.
 *
 * The limit adapts to what the process can serve. A turn mostly waits on the model, so how many
 * can run at once depends on how much CPU each costs here, not on a number fixed in advance: a
 * fixed 64 served 30 turns/s at 200 customers with a core to spare, and queued the rest. The limit
 * starts at 64 (or CHAT_TURN_CAPACITY, if lower) and is revised as slots free
 * up, at most every quarter second, from the event loop's utilization over that time: while turns
 * wait in line and the loop is busy less than LOW of the time, it grows by a tenth; once the loop
 * is busier than HIGH (the process is CPU-bound and every running turn is slowing the others), it
 * shrinks by a tenth, never below the start. CHAT_TURN_CAPACITY is its ceiling.
 *
 * The line follows the process's measured capacity rather than a fixed length: a newcomer is
 * refused at the door (503 `overloaded`, Retry-After) only when the wait it would face, the turns
 * ahead of it divided by the rate at which turns have been finishing, is longer than that wait
 * allows, or when the line holds CHAT_TURN_QUEUE already (a bound on memory, not on load). So
 * whatever the process can serve within the wait is served, however many customers that is on this
 * machine, and a truly saturated server still answers quickly, before anything is stored or any
 * model is called, instead of letting every turn slow down until some time out deep in their
 * streams. Until turns have finished to measure the rate, only the line's bound and each waiter's
 * own wait apply.
 *
 * Per process, in memory, unlike the message rate limit (kept in the database): what runs out is
 * this process's CPU and memory, so each instance counts its own turns. The line is hand-written
 * because a waiter must be able to leave it (time out, or the client went away) without holding
 * its place; p-limit (used for password hashing) has no way to withdraw one queued task.
 */
import "server-only";
import { performance } from "node:perf_hooks";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type TurnSlot = {
  /** Frees the slot for the next turn in line. Idempotent: only the first call counts. */
  release: () => void;
};

export type AdmissionLimits = {
  /** The most turns that ever run at once: the adaptive limit's ceiling. */
  capacity: number;
  queue: number;
  waitMs: number;
  /** Where the adaptive limit starts and its floor; capacity when not given (no adapting). */
  start?: number;
};

/**
 * The event loop's utilization (0..1) since the previous call: the share of time it was busy.
 * Node's own measure by default; a test passes its own.
 */
export type UtilizationMeter = () => number;

export function eventLoopMeter(): UtilizationMeter {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return delta.utilization;
  };
}

/** Where the limit starts, and its floor: what a fixed limit used to be. */
export const ADAPTIVE_START = 64;
/** Below this utilization, with turns waiting, the limit grows. */
export const LOW_UTILIZATION = 0.75;
/** Above it, the limit shrinks: the loop is saturated. */
export const HIGH_UTILIZATION = 0.9;
/** The limit is revised at most this often (ms): a shorter window measures noise. */
const REVISE_EVERY_MS = 250;

type Waiter = { admit: (slot: TurnSlot) => void };

/** A turn's duration before any was measured: what Retry-After assumes at start-up (ms). */
const FIRST_GUESS_MS = 5_000;
/** Weight of the newest sample in the moving averages: about the last ten turns count. */
const SMOOTHING = 0.1;

export class TurnAdmission {
  private active = 0;
  private readonly line: Waiter[] = [];
  /** Moving average of how long a turn holds its slot, for Retry-After. */
  private meanHoldMs = FIRST_GUESS_MS;
  /**
   * Moving average of the time between two turns finishing while others waited: the inverse of
   * the rate the line moves at. Null until measured.
   */
  private meanGapMs: number | null = null;
  private lastReleaseAt: number | null = null;
  /** Turns allowed to run at once now, between `floor` and `limits.capacity`. */
  private limit: number;
  private readonly floor: number;
  private revisedAt = Date.now();

  constructor(
    readonly limits: AdmissionLimits,
    private readonly utilization: UtilizationMeter = eventLoopMeter(),
  ) {
    this.floor = Math.max(1, Math.min(limits.start ?? limits.capacity, limits.capacity));
    this.limit = this.floor;
  }

  /** Turns running and waiting in line now, and the limit of running ones. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.line.length };
  }

  /** How many turns may run at once now (adapts between the start and CHAT_TURN_CAPACITY). */
  get currentLimit(): number {
    return this.limit;
  }

  /** Revises the limit from the loop's recent utilization; at most every REVISE_EVERY_MS. */
  private revise(now: number): void {
    if (this.floor >= this.limits.capacity || now - this.revisedAt < REVISE_EVERY_MS) return;
    this.revisedAt = now;
    const busy = this.utilization();
    const step = Math.max(1, Math.round(this.limit / 10));
    if (busy > HIGH_UTILIZATION) this.limit = Math.max(this.floor, this.limit - step);
    else if (busy < LOW_UTILIZATION && this.line.length > 0)
      this.limit = Math.min(this.limits.capacity, this.limit + step);
  }

  /**
   * A slot for one turn: at once, after a wait in line, or a thrown 503 `overloaded`. `signal`
   * (the request's) takes a waiter out of the line when its client goes away.
   */
  async enter(signal?: AbortSignal): Promise<TurnSlot> {
    if (this.active < this.limit && this.line.length === 0) return this.grant();
    // A client already gone, a full line, or a wait longer than allowed: refused at once.
    if (this.line.length >= this.limits.queue || signal?.aborted) throw this.overloaded();
    if (this.expectedWaitMs(this.line.length + 1) > this.limits.waitMs) throw this.overloaded();
    return await new Promise<TurnSlot>((resolve, reject) => {
      const leave = (err: AppError) => {
        const i = this.line.indexOf(waiter);
        if (i >= 0) this.line.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(err);
      };
      const onAbort = () => leave(this.overloaded());
      const waiter: Waiter = {
        admit: (slot) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(slot);
        },
      };
      const timer = setTimeout(() => leave(this.overloaded()), this.limits.waitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.line.push(waiter);
    });
  }

  private grantNext(): void {
    const next = this.line.shift();
    if (!next) return;
    this.active++;
    next.admit(this.slot());
  }

  private grant(): TurnSlot {
    this.active++;
    return this.slot();
  }

  /** A slot counted in `active`; releasing it hands it to the first in line, if any. */
  private slot(): TurnSlot {
    const since = Date.now();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const now = Date.now();
        this.meanHoldMs = (1 - SMOOTHING) * this.meanHoldMs + SMOOTHING * (now - since);
        const next = this.line.shift();
        // Only a release with someone waiting measures the line's pace: an idle gap says nothing
        // about how fast a busy process finishes turns.
        if (next && this.lastReleaseAt !== null) {
          const gap = now - this.lastReleaseAt;
          this.meanGapMs =
            this.meanGapMs === null ? gap : (1 - SMOOTHING) * this.meanGapMs + SMOOTHING * gap;
        }
        this.lastReleaseAt = next || this.line.length > 0 ? now : null;
        this.revise(now);
        // The slot passes straight to the first in line: no newcomer can take it in between.
        // Over a limit that just shrank, it is not passed on; under one that grew, more are.
        if (next && this.active <= this.limit) next.admit(this.slot());
        else {
          if (next) this.line.unshift(next);
          this.active--;
        }
        while (this.active < this.limit && this.line.length > 0) this.grantNext();
      },
    };
  }

  /**
   * How long the `position`-th in line would wait: that many turns finishing at the measured pace,
   * or at a full slot's share of a turn before the pace is known. The first guess only ever
   * names a Retry-After; it refuses nobody (0 until measured).
   */
  private expectedWaitMs(position: number, guess = false): number {
    if (this.meanGapMs !== null) return position * this.meanGapMs;
    return guess ? (position * this.meanHoldMs) / Math.max(1, this.limit) : 0;
  }

  /** 503 with an honest guess of when a slot frees up: the line ahead at its measured pace. */
  private overloaded(): AppError {
    const ahead = this.line.length + 1;
    const seconds = Math.ceil(this.expectedWaitMs(ahead, true) / 1000);
    const retryAfter = Math.min(60, Math.max(1, seconds));
    return new AppError(
      "overloaded",
      `The assistant has more conversations than it can answer right now. Try again in ${retryAfter} s.`,
      {
        details: { retryAfterSeconds: retryAfter },
        headers: { "Retry-After": String(retryAfter) },
      },
    );
  }
}

const KEY = Symbol.for("returns-desk.turn-admission");
type Holder = { [KEY]?: { key: string; admission: TurnAdmission } };

/**
 * This process's admission, for the configured limits. Kept on globalThis so every bundle of the
 * app shares one count; rebuilt when the configuration changes (tests call resetEnv()).
 */
export function turnAdmission(): TurnAdmission {
  const e = env();
  const limits: AdmissionLimits = {
    capacity: e.CHAT_TURN_CAPACITY,
    start: Math.min(ADAPTIVE_START, e.CHAT_TURN_CAPACITY),
    queue: e.CHAT_TURN_QUEUE,
    waitMs: e.CHAT_TURN_QUEUE_WAIT_SECONDS * 1000,
  };
  const key = JSON.stringify(limits);
  const holder = globalThis as Holder;
  if (holder[KEY]?.key !== key) holder[KEY] = { key, admission: new TurnAdmission(limits) };
  return holder[KEY].admission;
}
