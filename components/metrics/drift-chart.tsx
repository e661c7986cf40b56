import { AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import type { DriftResponse, DriftSignal, DriftWindowView } from "@/lib/api/drift";

/**
 * A profile's drift windows for one signal, drawn on the server as SVG like the daily charts:
 * the corridor of each window as a pale band, the window's value as a line, a breached window's
 * point in red. Hidden from assistive technology; the table beside it has the numbers.
 */
const WIDTH = 600;
const HEIGHT = 160;
const MARGIN = { top: 8, right: 8, bottom: 8, left: 52 };

export function DriftChart({
  profile,
  signal,
  format,
}: {
  profile: DriftResponse["profiles"][number];
  signal: DriftSignal;
  format: (v: number) => string;
}) {
  const windows = profile.windows;
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<string>({
    domain: windows.map((w) => w.start),
    range: [0, innerWidth],
    padding: 0.1,
  });
  const values = windows.flatMap((w) => {
    const band = w.corridor?.[signal];
    return [w.signals[signal] ?? 0, band?.high ?? 0];
  });
  const y = scaleLinear<number>({
    domain: [0, Math.max(1e-9, ...values)],
    range: [innerHeight, 0],
    nice: true,
  });
  const center = (w: DriftWindowView) => (x(w.start) ?? 0) + x.bandwidth() / 2;
  const points = windows.filter((w) => w.signals[signal] !== null);
  // One tick per label: a flat series (all zero) has ticks too close to tell apart in the
  // signal's format, which read "0.0% 0.0% 0.0%" up the axis.
  const seen = new Set<string>();
  const tickValues = y.ticks(4).filter((v) => {
    const label = format(v);
    if (seen.has(label)) return false;
    seen.add(label);
    return true;
  });
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      role="presentation"
      focusable="false"
      data-testid={`drift-chart-${signal}`}
    >
      <Group left={MARGIN.left} top={MARGIN.top}>
        {windows.map((w) => {
          const band = w.corridor?.[signal];
          if (!band) return null;
          const top = y(Math.min(band.high, y.domain()[1]!));
          return (
            <Bar
              key={w.start}
              x={x(w.start)}
              y={top}
              width={x.bandwidth()}
              height={Math.max(0, y(Math.max(0, band.low)) - top)}
              fill="#e0f2fe"
            />
          );
        })}
        <LinePath<DriftWindowView>
          data={points}
          x={center}
          y={(w) => y(w.signals[signal] ?? 0)}
          stroke="#2563eb"
          strokeWidth={2}
          fill="none"
        />
        {points.map((w) => (
          <circle
            key={w.start}
            cx={center(w)}
            cy={y(w.signals[signal] ?? 0)}
            r={3}
            fill={w.breached.includes(signal) ? "#dc2626" : "#2563eb"}
            data-breached={w.breached.includes(signal) ? "true" : "false"}
          />
        ))}
        <AxisLeft
          scale={y}
          tickValues={tickValues}
          tickFormat={(v) => format(Number(v))}
          stroke="#94a3b8"
          tickStroke="#94a3b8"
          tickLabelProps={{ fontSize: 11, fill: "#475569" }}
        />
      </Group>
    </svg>
  );
}
