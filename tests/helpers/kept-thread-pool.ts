import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from "vitest/node";
import { ThreadsPoolWorker } from "vitest/node";

/**
 * A vitest pool for Stryker's runs (vitest.mutation.config.ts): vitest's own thread worker, kept
 * alive from one run to the next instead of being terminated at the end of each.
 *
 * Stryker starts one vitest run per mutant, and vitest ends every run by terminating its worker,
 * so each mutant's run began with a new thread importing the covering files' whole graph (Next's
 * route handlers, drizzle, better-auth, the AI SDK): about a second, against a few milliseconds
 * for the tests a killed mutant needs. The worker already keeps its module cache for the life of
 * its thread (vitest's base worker invalidates only the test files between run requests), so a
 * thread that lives on imports only the test files again.
 *
 * That is what Stryker's design expects of a runner: the instrumented code holds every mutant and
 * reads the active one from a global on each call, which the runner's setup file sets before each
 * file's tests; its mocha and jasmine runners keep the process for the same reason. A mutant in
 * code that runs only when a module loads would need a reload; those static mutants are left out
 * (`ignoreStatic`), and the load-time part of a mutant that is also reached by tests was never
 * active under the runner's run-time switch, fresh thread or not.
 *
 * What a kept thread carries from one mutant to the next is module state: the caches of
 * providers, transports and fingerprints, each keyed by its configuration. A mutant that breaks
 * a cache's first use is then not killed, because an earlier run filled the cache: three such
 * were found, and no kill that fresh threads would not make, comparing mutant by mutant
 * (`MUTATION_FRESH_THREADS=1`, docs/mutation.md). A thread
 * is replaced after `runsPerThread` runs, because the worker adds a listener and a cancel callback
 * for each run it is given.
 */
export function keptThreads(options: { runsPerThread: number }): PoolRunnerInitializer {
  const idle: Kept[] = [];
  let closeRegistered = false;
  return {
    name: KEPT_THREADS,
    createPoolWorker: (poolOptions: PoolOptions): PoolWorker => {
      if (!closeRegistered) {
        closeRegistered = true;
        // Vitest terminates the threads it is running; the parked ones are ours to end.
        poolOptions.project.vitest.onClose(async () => {
          await Promise.all(idle.splice(0).map((kept) => kept.thread.stop()));
        });
      }
      return new KeptThreadWorker(poolOptions, idle, options.runsPerThread);
    },
  };
}

const KEPT_THREADS = "kept-threads";

type Kept = { thread: ThreadsPoolWorker; runs: number; leave?: () => void };

type Listener = (arg: unknown) => void;

class KeptThreadWorker implements PoolWorker {
  readonly name = KEPT_THREADS;
  private kept: Kept | undefined;
  private readonly attached: Array<{ event: string; callback: Listener }> = [];
  private answeredStop = false;

  constructor(
    private readonly options: PoolOptions,
    private readonly idle: Kept[],
    private readonly runsPerThread: number,
  ) {}

  async start(): Promise<void> {
    const reused = this.idle.pop();
    if (reused) {
      reused.leave?.();
      this.kept = reused;
      return;
    }
    const thread = new ThreadsPoolWorker(this.options);
    await thread.start();
    this.kept = { thread, runs: 0 };
  }

  on(event: string, callback: Listener): void {
    this.attached.push({ event, callback });
    this.current().thread.on(event, callback);
  }

  off(event: string, callback: Listener): void {
    const index = this.attached.findIndex((a) => a.event === event && a.callback === callback);
    if (index !== -1) this.attached.splice(index, 1);
    this.kept?.thread.off(event, callback);
  }

  send(message: WorkerRequest): void {
    const kept = this.current();
    if (message.type === "run") kept.runs += 1;
    // The worker's own "stop" tears its environment down and stops listening for good. A thread
    // that is kept is answered for here, and goes on listening for the next run's "start" (which
    // brings that run's configuration: Stryker's test filter).
    if (message.type === "stop" && kept.runs < this.runsPerThread) {
      this.answeredStop = true;
      const stopped = { type: "stopped", __vitest_worker_response__: true };
      const listeners = this.attached.filter((a) => a.event === "message");
      setImmediate(() => {
        for (const a of listeners) a.callback(stopped);
      });
      return;
    }
    kept.thread.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async stop(): Promise<void> {
    const kept = this.current();
    for (const a of this.attached.splice(0)) kept.thread.off(a.event, a.callback);
    this.kept = undefined;
    // A forced stop (a run that errored, or a second cancel) sends no "stop": the thread goes.
    if (this.answeredStop) park(this.idle, kept);
    else await kept.thread.stop();
  }

  private current(): Kept {
    if (!this.kept) throw new Error("kept-threads: the worker was used before start or after stop");
    return this.kept;
  }
}

/** A parked thread that exits (it should not) leaves the list instead of failing a later run. */
function park(idle: Kept[], kept: Kept): void {
  idle.push(kept);
  const gone = () => {
    const index = idle.indexOf(kept);
    if (index !== -1) idle.splice(index, 1);
  };
  kept.thread.on("exit", gone);
  kept.leave = () => kept.thread.off("exit", gone);
}
