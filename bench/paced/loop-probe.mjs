// Loaded into a server by `npm run bench:paced` (node --import): the event loop's delay in that
// process, from perf_hooks.monitorEventLoopDelay. On SIGUSR2 it writes what it saw since the last
// signal to BENCH_LOOP_FILE (milliseconds) and starts over, so the benchmark reads one figure per
// phase without a route of its own in the server under test.
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.on("SIGUSR2", () => {
    const out = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(out));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
