/**
 * Admission of chat turns: at most CHAT_TURN_CAPACITY turns run at once in this process, and the
 * rest wait in line (first come, first served) for at most CHAT_TURN_QUEUE_WAIT_SECONDS.
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
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type TurnSlot = {
  /** Frees the slot for the next turn in line. Idempotent: only the first call counts. */
  release: () => void;
};

export type AdmissionLimits = { capacity: number; queue: number; waitMs: number };

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

  constructor(readonly limits: AdmissionLimits) {}

  /** Turns running and waiting in line now. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.line.length };
  }

  /**
   * A slot for one turn: at once, after a wait in line, or a thrown 503 `overloaded`. `signal`
   * (the request's) takes a waiter out of the line when its client goes away.
   */
  async enter(signal?: AbortSignal): Promise<TurnSlot> {
    if (this.active < this.limits.capacity && this.line.length === 0) return this.grant();
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
        // The slot passes straight to the first in line: no newcomer can take it in between.
        if (next) next.admit(this.slot());
        else this.active--;
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
    return guess ? (position * this.meanHoldMs) / Math.max(1, this.limits.capacity) : 0;
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
    queue: e.CHAT_TURN_QUEUE,
    waitMs: e.CHAT_TURN_QUEUE_WAIT_SECONDS * 1000,
  };
  const key = JSON.stringify(limits);
  const holder = globalThis as Holder;
  if (holder[KEY]?.key !== key) holder[KEY] = { key, admission: new TurnAdmission(limits) };
  return holder[KEY].admission;
}
