import { type ChildProcess, spawn } from "node:child_process";
import readline from "node:readline";

/**
 * A worker process of a race suite: a `tsx` script that opens the test database, prints "ready",
 * waits for "go" on its stdin, does its part, and prints one JSON line per result.
 */
export type Worker = {
  child: ChildProcess;
  /** Every line it printed after "ready". */
  lines: string[];
  ready: Promise<void>;
  /** Its exit code. */
  done: Promise<number | null>;
};

/** How a worker script is run by default: `tsx`, with the server's module conditions. */
const NODE_ARGS = ["--conditions=react-server", "--import", "tsx"];

export function startWorker(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = NODE_ARGS,
): Worker {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: process.cwd(),
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => {
    markReady = r;
  });
  readline.createInterface({ input: child.stdout! }).on("line", (l) => {
    if (l === "ready") return markReady();
    lines.push(l);
    // A worker's progress, to follow a failing race by hand.
    if (process.env.DEBUG_WORKER) console.error(l.slice(0, 1500));
  });
  const done = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, lines, ready, done };
}

/**
 * Releases started workers together once all are ready (each has paid its start-up, so they
 * race on the database, not on `tsx`), waits for every one to exit, and returns their exit codes
 * and every line they printed, parsed.
 */
export async function release<Line>(
  workers: Worker[],
): Promise<{ codes: (number | null)[]; lines: Line[] }> {
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.stdin!.end("go\n");
  const codes = await Promise.all(workers.map((w) => w.done));
  return { codes, lines: workers.flatMap((w) => w.lines.map((l) => JSON.parse(l) as Line)) };
}
