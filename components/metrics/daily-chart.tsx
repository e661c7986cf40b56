"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { DayPoint } from "@/lib/metrics/report";

/**
 * The day-by-day series as a chart (recharts, client side: it measures its container). The same
 * numbers are in the table under it, which is what screen readers and copy-paste get.
 */
export type ChartLabels = Record<
  "turns" | "proposals" | "confirmed" | "turnErrors" | "tokens",
  string
>;

export function DailyChart({ series, labels }: { series: DayPoint[]; labels: ChartLabels }) {
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-hidden="true">
      <div className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            accessibilityLayer={false}
            data={series}
            margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis
              dataKey="day"
              tick={{ fontSize: 11 }}
              tickFormatter={(d: string) => d.slice(5)}
            />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="turns" name={labels.turns} fill="#94a3b8" isAnimationActive={false} />
            <Line
              dataKey="proposals"
              name={labels.proposals}
              stroke="#2563eb"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              dataKey="confirmed"
              name={labels.confirmed}
              stroke="#16a34a"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              dataKey="turnErrors"
              name={labels.turnErrors}
              stroke="#dc2626"
              dot={false}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <div className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            accessibilityLayer={false}
            data={series}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis
              dataKey="day"
              tick={{ fontSize: 11 }}
              tickFormatter={(d: string) => d.slice(5)}
            />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="tokens" name={labels.tokens} fill="#a78bfa" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
