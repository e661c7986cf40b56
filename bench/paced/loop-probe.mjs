// Loaded into a server by `npm run bench:paced` (node --import): the event loop's delay in that
// process, from perf_hooks.monitorEventLoopDelay. On SIGUSR2 it writes what it saw since the last
// signal to BENCH_LOOP_FILE (milliseconds) and starts over, so the benchmark reads one figure per
// phase without a route of its own in the server under test. It also counts the
// AsyncLocalStorage instances in use: on Node 20 each one adds work to every promise created.
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  let stores = 0;
  // Node 20's AsyncLocalStorage enables itself (joins the per-promise hook's list) on first use.
  const enable = AsyncLocalStorage.prototype._enable;
  if (typeof enable === "function")
    AsyncLocalStorage.prototype._enable = function () {
      if (!this.enabled) stores++;
      return enable.call(this);
    };
  process.on("SIGUSR2", () => {
    const out = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), stores };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(out));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
