/**
 * Admission of chat turns: at most CHAT_TURN_CAPACITY turns run at once in this process, up to
 * CHAT_TURN_QUEUE more wait in line (first come, first served) for at most
 * CHAT_TURN_QUEUE_WAIT_SECONDS, and a turn beyond that is refused at the door with 503
 * `overloaded` and Retry-After. A saturated server thus answers quickly, before anything is stored
 * or any model is called, instead of letting every turn slow down until some of them time out
 * deep inside their streams.
 *
 * Per process, in memory, unlike the message rate limit (kept in the database): what runs out is
 * this process's CPU and memory, so each instance counts its own turns. The line is hand-written
 * because a waiter must be able to leave it (time out, or the client went away) without holding
 * its place; p-limit (used for password hashing) has no way to withdraw one queued task.
 *
 * The count alone is not enough. A process saturates (its event loop always busy) at however many
 * turns its cores sustain, which on a small machine is well below CHAT_TURN_CAPACITY; past that,
 * each loop iteration takes longer, and Node accepts about one new connection per iteration: at
 * 500 customers the bench saw ~480 connections queued in the kernel's accept queue for up to a
 * minute, their requests never reaching this line, so none was refused and some timed out
 * (docs/benchmarks.md, "Past capacity"). So while the loop is late (saturated), a new turn does not
 * start even below the count: it waits in the line, bounded as before, or is refused. Fewer turns
 * then run at once, iterations stay short, and new requests are read and answered (or refused)
 * promptly. One turn always runs, so a busy process still makes progress.
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

/**
 * Whether the process is saturated now, and a way to hear when it no longer is (to start the turns
 * waiting in line without waiting for one to end). The default reads the event loop's lateness;
 * tests pass their own.
 */
export type LoadSignal = {
  saturated: () => boolean;
  onRelief: (fn: () => void) => void;
};

/** No signal: only the count limits (the behaviour before the loop was watched). */
const NEVER_SATURATED: LoadSignal = { saturated: () => false, onRelief: () => {} };

export class TurnAdmission {
  private active = 0;
  private readonly line: Waiter[] = [];
  /** Moving average of how long a turn holds its slot, for Retry-After. */
  private meanHoldMs = FIRST_GUESS_MS;

  constructor(
    readonly limits: AdmissionLimits,
    private readonly load_: LoadSignal = NEVER_SATURATED,
  ) {
    load_.onRelief(() => this.drain());
  }

  /** Room for one more running turn: under the count, and (but for the first) a loop keeping up. */
  private hasRoom(): boolean {
    return this.active < this.limits.capacity && (this.active === 0 || !this.load_.saturated());
  }

  /** Starts waiting turns while there is room (the loop caught up, or a slot came free). */
  private drain(): void {
    while (this.line.length > 0 && this.hasRoom()) {
      this.active++;
      this.line.shift()!.admit(this.slot());
    }
  }

  /** Turns running and waiting in line now. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.line.length };
  }

  /**
   * A slot for one turn: at once, after a wait in line, or a thrown 503 `overloaded`. `signal`
   * (the request's) takes a waiter out of the line when its client goes away.
   */
  async enter(signal?: AbortSignal): Promise<TurnSlot> {
    if (this.line.length === 0 && this.hasRoom()) return this.grant();
    // A client already gone, or a full line: refused at once.
    if (this.line.length >= this.limits.queue || signal?.aborted) throw this.overloaded();
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
        this.meanHoldMs = 0.8 * this.meanHoldMs + 0.2 * (Date.now() - since);
        this.active--;
        // Straight to the first in line, if there is room: no newcomer can take it in between
        // (a newcomer finds the line non-empty and queues behind it).
        this.drain();
      },
    };
  }

  /** 503 with an honest guess of when a slot frees up: the line ahead times a turn's share. */
  private overloaded(): AppError {
    const ahead = this.line.length + 1;
    const seconds = Math.ceil((ahead * this.meanHoldMs) / Math.max(1, this.limits.capacity) / 1000);
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

/**
 * The event loop's lateness as the load signal: a timer every SAMPLE_MS, and how late it fired.
 * Saturated while the smoothed lateness is above LATE_MS: the loop then spends that long per
 * iteration on work already admitted (web streams' chunks, mostly), and every new request and
 * connection waits behind it. 100 ms is well above an idle or merely busy loop's few milliseconds
 * (the paced bench's p50 at 50 customers), and low enough that a new connection is accepted within
 * a few hundred milliseconds. Started on the first turn, unref'd: no timer in a process that never
 * serves one.
 */
const SAMPLE_MS = 100;
const LATE_MS = 100;

export function loopLateness(clock: () => number = () => performance.now()): LoadSignal {
  let late = 0;
  let started = false;
  const relief: (() => void)[] = [];
  const start = () => {
    if (started) return;
    started = true;
    let expected = clock() + SAMPLE_MS;
    const tick = () => {
      const now = clock();
      const was = late > LATE_MS;
      late = 0.5 * late + 0.5 * Math.max(0, now - expected);
      if (was && late <= LATE_MS) for (const fn of relief) fn();
      expected = now + SAMPLE_MS;
      setTimeout(tick, SAMPLE_MS).unref();
    };
    setTimeout(tick, SAMPLE_MS).unref();
  };
  return {
    saturated: () => {
      start();
      return late > LATE_MS;
    },
    onRelief: (fn) => {
      relief.push(fn);
    },
  };
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
  if (holder[KEY]?.key !== key)
    holder[KEY] = { key, admission: new TurnAdmission(limits, loopLateness()) };
  return holder[KEY].admission;
}
