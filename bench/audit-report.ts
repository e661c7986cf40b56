/**
 * Timing and reporting helpers for bench/audit.ts: percentiles, the machine it ran on, and
 * writing our section of docs/benchmarks.md between markers so another benchmark can own
 * another section of the same file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Timing = { p50: number; p95: number; n: number };

/** Nearest-rank percentiles of `n` timed calls, after `warmup` untimed ones. */
export async function time(run: (i: number) => unknown, n: number, warmup = 20): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await run(-1 - i);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), n };
}

export function machine(sqliteVersion: string): string {
  const cpus = os.cpus();
  return [
    `node ${process.version}`,
    `${cpus[0]?.model.trim() ?? "unknown cpu"} × ${cpus.length} cores`,
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM`,
    `${os.type()} ${os.release()} ${os.arch()}`,
    `SQLite ${sqliteVersion}`,
  ].join(", ");
}

export const fmt = (ms: number) =>
  ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms.toFixed(1);

const START = "<!-- bench:audit:start -->";
const END = "<!-- bench:audit:end -->";

/** Replaces (or appends) our marked section of docs/benchmarks.md. */
export function writeSection(
  markdown: string,
  file = path.join(process.cwd(), "docs", "benchmarks.md"),
): void {
  const section = `${START}\n${markdown.trim()}\n${END}`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + section + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}
