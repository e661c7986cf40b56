/**
 * Latency bookkeeping: every timed request lands in a named step; a step reports its count,
 * errors, throughput over its own busy window, and percentiles.
 */

export type Sample = { start: number; end: number; ok: boolean; bytes?: number };

export type StepStats = {
  step: string;
  count: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  meanBytes: number;
};

/** Nearest-rank percentile of sorted values (ms). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export class Recorder {
  readonly samples = new Map<string, Sample[]>();
  readonly failures: string[] = [];

  /** Times `fn`; a throw counts as an error of the step (and is remembered, not rethrown). */
  async time<T>(
    step: string,
    fn: () => Promise<{ ok: boolean; value: T; bytes?: number; why?: string }>,
  ): Promise<T | undefined> {
    const start = performance.now();
    let sample: Sample;
    let value: T | undefined;
    try {
      const r = await fn();
      value = r.value;
      sample = { start, end: performance.now(), ok: r.ok, bytes: r.bytes };
      if (!r.ok) this.failures.push(`${step}: ${r.why ?? "unexpected answer"}`);
    } catch (err) {
      sample = { start, end: performance.now(), ok: false };
      this.failures.push(`${step}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const list = this.samples.get(step) ?? [];
    list.push(sample);
    this.samples.set(step, list);
    return value;
  }

  stats(step: string): StepStats {
    const list = this.samples.get(step) ?? [];
    const ms = list.map((s) => s.end - s.start).sort((a, b) => a - b);
    const window = list.length
      ? Math.max(...list.map((s) => s.end)) - Math.min(...list.map((s) => s.start))
      : 0;
    const sized = list.filter((s) => s.bytes !== undefined);
    return {
      step,
      count: list.length,
      errors: list.filter((s) => !s.ok).length,
      rps: window > 0 ? (list.length * 1000) / window : 0,
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
      p99: percentile(ms, 99),
      meanBytes: sized.length ? sized.reduce((a, s) => a + (s.bytes ?? 0), 0) / sized.length : 0,
    };
  }
}

/** Runs `jobs` with at most `concurrency` in flight. */
export async function pool<T>(items: T[], concurrency: number, job: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await job(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
