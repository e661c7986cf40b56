/** Milliseconds left as a clock, "14:05" or "1:02:03"; never negative. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Whole minutes left for coarse wording; 0 means less than a minute. */
export function remainingMinutes(ms: number): number {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return total < 60 ? 0 : Math.round(total / 60);
}
