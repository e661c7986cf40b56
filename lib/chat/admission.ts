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

export class TurnAdmission {
  private active = 0;
  private readonly line: Waiter[] = [];
  /** Moving average of how long a turn holds its slot, for Retry-After. */
  private meanHoldMs = FIRST_GUESS_MS;

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
        const next = this.line.shift();
        // The slot passes straight to the first in line: no newcomer can take it in between.
        if (next) next.admit(this.slot());
        else this.active--;
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
