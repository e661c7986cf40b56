/**
 * The server's resident memory (its whole process tree) while the benchmark runs: sampled every
 * `everyMs` and, for the peak, the kernel's own high-water mark (VmHWM) of each process, reset
 * when sampling starts, so a peak shorter than the sampling period is not missed.
 */
import { resetTreePeakRss, treePeakRssBytes, treeRssBytes } from "./server";

export function sampleMemory(pid: number, everyMs = 100) {
  let peak = 0;
  let samples = 0;
  const tick = () => {
    peak = Math.max(peak, treeRssBytes(pid));
    samples++;
  };
  resetTreePeakRss(pid);
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      // The larger of the two: never less than what was seen.
      return { peakBytes: Math.max(peak, treePeakRssBytes(pid)), samples };
    },
  };
}
