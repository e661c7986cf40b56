/**
 * The floors, measured on the same server in the same run: the cheapest JSON endpoint (health)
 * for the JSON steps, and a bare UI message stream of the chat turns' size for the turns.
 */
import type { TurnShape } from "./flow";
import { pool, type Recorder } from "./stats";

/** Bytes one text-delta event adds around its text: `data: {"type":"text-delta",...}\n\n`. */
const DELTA_OVERHEAD = 'data: {"type":"text-delta","id":"t","delta":""}\n\n'.length;

export async function runFloors(
  base: string,
  rec: Recorder,
  { count, concurrency, shapes }: { count: number; concurrency: number; shapes: TurnShape[] },
): Promise<{ bytes: number; events: number }> {
  const mean = (f: (s: TurnShape) => number) =>
    shapes.length ? shapes.reduce((a, s) => a + f(s), 0) / shapes.length : 1;
  const events = Math.max(1, Math.round(mean((s) => s.events)));
  const bytes = Math.max(1, Math.round(mean((s) => s.bytes) - events * DELTA_OVERHEAD));
  const n = Array.from({ length: count }, (_, i) => i);

  await pool(n, concurrency, async () => {
    await rec.time("floor: health", async () => {
      const res = await fetch(`${base}/api/health`);
      const body = await res.text();
      return { ok: res.status === 200, value: null, bytes: body.length, why: body.slice(0, 200) };
    });
  });
  await pool(n, concurrency, async () => {
    await rec.time("floor: stream", async () => {
      const res = await fetch(`${base}/api/bench/floor?deltas=${events}&bytes=${bytes}`);
      const body = await res.text();
      return {
        ok: res.status === 200 && body.includes('"text-end"'),
        value: null,
        bytes: body.length,
        why: `${res.status} ${body.slice(0, 200)}`,
      };
    });
  });
  return { bytes, events };
}
