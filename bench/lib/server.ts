/**
 * Builds and runs the real production server, as `npm start` runs it, for the load benchmark and
 * the system tests: its own dist folder (never the e2e suite's .next), a throwaway database, the
 * offline model, loopback only. The process is spawned directly (not through npm or npx) in its
 * own process group, so a SIGKILL hits the server itself, as a crash would.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
// What `npm start` runs: scripts/start.mjs (the configuration check, then scripts/serve.mjs in the
// same process), under the node flags of package.json's start script (the memory settings,
// README "Memory"), so the benchmark's figures are the product's own.

/**
 * The node flags of package.json's start script, `node [--flag …] scripts/start.mjs`. A start
 * script of any other shape stops the caller rather than run the server some other way.
 */
export function startFlags(root = ROOT): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const script = pkg.scripts.start?.trim() ?? "";
  const m = /^node((?:\s+--[\w-]+(?:=\S+)?)*)\s+scripts\/start\.mjs$/.exec(script);
  if (!m)
    throw new Error(
      `package.json's start script is not "node [--flag …] scripts/start.mjs": ${script}`,
    );
  return m[1]!.split(/\s+/).filter(Boolean);
}

/**
 * Builds into `distDir` when sources are newer than the build. The build is the heavy step on a
 * 2-core machine: it is serialized with every other build through /tmp/e2e.lock when flock exists.
 */
export function ensureBuild(distDir: string, root = ROOT): void {
  const env = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" };
  const script = path.join(root, "scripts/ensure-build.mjs");
  const hasFlock = spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0;
  const [cmd, args] = hasFlock
    ? ["flock", ["/tmp/e2e.lock", process.execPath, script]]
    : [process.execPath, [script]];
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`build into ${distDir} failed:\n${r.stdout}\n${r.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export type ServerOptions = {
  distDir: string;
  dbPath: string;
  /** Extra environment (e.g. CHAT_RATE_LIMIT_PER_MINUTE, BENCH_FLOOR_ROUTE). */
  env?: Record<string, string>;
  /** Node flags for the server process, e.g. ["--cpu-prof"]. */
  nodeArgs?: string[];
  /** A restart after a crash comes back on the same address. Default: a free port. */
  port?: number;
  /**
   * The checkout to run (its build, package.json's start flags, scripts/start.mjs). Default: this
   * one. Another is for before/after runs against an older commit (`git worktree add`).
   */
  root?: string;
};

export type Server = {
  url: string;
  pid: number;
  child: ChildProcess;
  /** stdout + stderr so far: a failing test shows what the server said. */
  output: () => string;
  /** SIGTERM (or the given signal) to the whole group, then wait for exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

export async function startServer(opts: ServerOptions): Promise<Server> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const root = opts.root ?? ROOT;
  const child = spawn(
    process.execPath,
    [
      ...startFlags(root),
      ...(opts.nodeArgs ?? []),
      path.join(root, "scripts/start.mjs"),
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: opts.distDir,
        DATABASE_PATH: opts.dbPath,
        MODEL_PROVIDER: "offline",
        OPENAI_API_KEY: "",
        // Every simulated customer signs in from 127.0.0.1: one client as far as throttling knows.
        AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
        ...opts.env,
      },
    },
  );
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: Server = {
    url,
    pid: child.pid!,
    child,
    output: () => out,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // Already gone.
      }
      await exited;
    },
  };
  await waitHealthy(server, exited);
  return server;
}

async function waitHealthy(server: Server, exited: Promise<void>): Promise<void> {
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (dead) throw new Error(`server exited before it was healthy:\n${server.output()}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await server.stop("SIGKILL");
  throw new Error(`server not healthy after 120 s:\n${server.output()}`);
}

/** A process and all its descendants, from /proc (Linux; empty elsewhere). */
function treePids(pid: number): number[] {
  if (!fs.existsSync("/proc")) return [];
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may contain spaces and parentheses: parse after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const pids: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    pids.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return pids;
}

/** One field of /proc/PID/status in bytes, summed over the process tree. */
function treeStatusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  let total = 0;
  for (const p of treePids(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      const kb = Number(status.match(new RegExp(`^${field}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
      total += kb * 1024;
    } catch {
      // Gone.
    }
  }
  return total;
}

/** Resident memory of a process and all its descendants, in bytes, now. */
export function treeRssBytes(pid: number): number {
  return treeStatusBytes(pid, "VmRSS");
}

/**
 * The kernel's own peak resident memory (VmHWM) of each process in the tree, summed: exact for
 * a one-process tree, an upper bound for several (their peaks need not coincide). Sampling alone
 * misses what lasts less than its period: a 32 MiB scrypt buffer lives ~100 ms.
 */
export function treePeakRssBytes(pid: number): number {
  return treeStatusBytes(pid, "VmHWM");
}

/** Starts the tree's peak (VmHWM) over from its current resident memory. */
export function resetTreePeakRss(pid: number): void {
  for (const p of treePids(pid)) {
    try {
      // "5" resets the peak resident set size (Documentation/filesystems/proc.rst).
      fs.writeFileSync(`/proc/${p}/clear_refs`, "5");
    } catch {
      // Gone, or not ours to reset: its peak then counts from its start, never less.
    }
  }
}
