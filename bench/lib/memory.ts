/** Samples the server's resident memory (its whole process tree) while the benchmark runs. */
import { treeRssBytes } from "./server";

export function sampleMemory(pid: number, everyMs = 100) {
  let peak = 0;
  let samples = 0;
  const tick = () => {
    peak = Math.max(peak, treeRssBytes(pid));
    samples++;
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return { peakBytes: peak, samples };
    },
  };
}
