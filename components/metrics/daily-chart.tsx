import { AxisBottom, AxisLeft } from "@visx/axis";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import type { DayPoint } from "@/lib/metrics/report";

/**
 * The day-by-day series as two charts, drawn on the server as SVG (visx: d3 scales and SVG
 * primitives, no browser code). The recharts version this replaces had to measure its container
 * in the browser, and booting it was 1.5 s of main-thread work on the metrics page
 * (docs/benchmarks.md, "Lighthouse"). The SVG scales with its box through its viewBox. The same
 * numbers are in the table under it, which is what screen readers and copy-paste get; the charts
 * are hidden from assistive technology. No SVG <title> tooltips: Chromium let those displace the
 * page's own <title> after a client-side navigation (document.title came back empty).
 */
export type ChartLabels = Record<
  "turns" | "proposals" | "confirmed" | "turnErrors" | "tokens",
  string
>;

type Key = keyof ChartLabels;
type Series = { key: Key; color: string };

// The chart's own coordinate system, about its size in one column of the widest layout; the SVG is
// scaled to its box's width.
const WIDTH = 600;
const HEIGHT = 256;
const MARGIN = { top: 8, right: 8, bottom: 24, left: 44 };
// At most this many day labels under the x axis; the rest of the days are still drawn.
const MAX_X_LABELS = 8;

const grouped = (v: number) => v.toLocaleString("en-US");

export function DailyChart({ series, labels }: { series: DayPoint[]; labels: ChartLabels }) {
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-hidden="true">
      <DayChart
        id="turns"
        series={series}
        labels={labels}
        bar={{ key: "turns", color: "#94a3b8" }}
        lines={[
          { key: "proposals", color: "#2563eb" },
          { key: "confirmed", color: "#16a34a" },
          { key: "turnErrors", color: "#dc2626" },
        ]}
      />
      <DayChart
        id="tokens"
        series={series}
        labels={labels}
        bar={{ key: "tokens", color: "#a78bfa" }}
        lines={[]}
      />
    </div>
  );
}

function DayChart({
  id,
  series,
  labels,
  bar,
  lines,
}: {
  id: string;
  series: DayPoint[];
  labels: ChartLabels;
  bar: Series;
  lines: Series[];
}) {
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const days = series.map((d) => d.day);
  const x = scaleBand<string>({ domain: days, range: [0, innerWidth], padding: 0.2 });
  const top = Math.max(1, ...series.flatMap((d) => [bar, ...lines].map((s) => d[s.key])));
  const y = scaleLinear<number>({ domain: [0, top], range: [innerHeight, 0], nice: true });
  // Whole numbers only: these are counts.
  const yTicks = y.ticks(5).filter((v) => Number.isInteger(v));
  const every = Math.ceil(days.length / MAX_X_LABELS);
  const xTicks = days.filter((_, i) => i % every === 0);
  const center = (day: string) => (x(day) ?? 0) + x.bandwidth() / 2;

  return (
    <figure className="grid gap-1" data-testid={`daily-chart-${id}`}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full"
        role="presentation"
        focusable="false"
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          <GridRows
            scale={y}
            width={innerWidth}
            tickValues={yTicks}
            stroke="#e2e8f0"
            strokeDasharray="3 3"
          />
          {series.map((d) => (
            <Bar
              key={d.day}
              data-testid="chart-bar"
              x={x(d.day)}
              y={y(d[bar.key])}
              width={x.bandwidth()}
              height={innerHeight - y(d[bar.key])}
              fill={bar.color}
              data-day={d.day}
              data-value={d[bar.key]}
            />
          ))}
          {lines.map((line) => (
            <LinePath<DayPoint>
              key={line.key}
              data={series}
              x={(d) => center(d.day)}
              y={(d) => y(d[line.key])}
              stroke={line.color}
              strokeWidth={2}
              fill="none"
            />
          ))}
          <AxisLeft
            scale={y}
            tickValues={yTicks}
            tickFormat={(v) => grouped(Number(v))}
            stroke="#94a3b8"
            tickStroke="#94a3b8"
            tickLabelProps={{ fontSize: 11, fill: "#475569" }}
          />
          <AxisBottom
            scale={x}
            top={innerHeight}
            tickValues={xTicks}
            tickFormat={(d) => d.slice(5)}
            stroke="#94a3b8"
            tickStroke="#94a3b8"
            tickLabelProps={{ fontSize: 11, fill: "#475569" }}
          />
        </Group>
      </svg>
      <figcaption>
        <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-slate-700">
          {[bar, ...lines].map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span
                className="inline-block h-2.5 w-2.5 rounded-sm"
                style={{ background: s.color }}
              />
              {labels[s.key]}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
