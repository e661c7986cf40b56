/**
 * The drift charts of /audit/metrics for the payload and the tool mix, rendered to markup as the
 * page renders them on the server: a window outside its corridor is drawn as a breach, and the
 * one-sided tool-mix corridor starts at 0.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DriftChart } from "@/components/metrics/drift-chart";
import type { DriftResponse, DriftSignal, DriftWindowView } from "@/lib/api/drift";
import { DRIFT_SIGNALS } from "@/lib/api/drift";

const none = Object.fromEntries(DRIFT_SIGNALS.map((s) => [s, null])) as Record<DriftSignal, null>;

function window(i: number, over: Partial<DriftWindowView>): DriftWindowView {
  return {
    start: new Date(i * 60_000).toISOString(),
    end: new Date((i + 1) * 60_000).toISOString(),
    turns: 6,
    signals: { ...none },
    corridor: null,
    breached: [],
    ...over,
  };
}

const profile: DriftResponse["profiles"][number] = {
  fingerprint: "p",
  role: "live",
  breachRun: 1,
  windows: [
    window(0, { signals: { ...none, toolMixDivergence: 0.02, payloadP95Bytes: 600 } }),
    window(1, {
      signals: { ...none, toolMixDivergence: 1, payloadP95Bytes: 1800 },
      corridor: {
        ...none,
        toolMixDivergence: { low: 0, high: 0.07 },
        payloadP95Bytes: { low: 540, high: 660 },
      },
      breached: ["payloadP95Bytes", "toolMixDivergence"],
    }),
  ],
};

const render = (signal: DriftSignal) =>
  renderToStaticMarkup(
    createElement(DriftChart, { profile, signal, format: (v: number) => String(v) }),
  );

describe("the drift charts of the payload and the tool mix", () => {
  it.each(["payloadP95Bytes", "toolMixDivergence"] as const)(
    "%s: one point per window, the breach in red",
    (signal) => {
      const html = render(signal);
      expect(html).toContain(`data-testid="drift-chart-${signal}"`);
      expect(html.match(/data-breached="false"/g)).toHaveLength(1);
      expect(html.match(/data-breached="true"/g)).toHaveLength(1);
      // The corridor's band is drawn behind the breached window.
      expect(html).toContain('fill="#e0f2fe"');
    },
  );
});

describe("a flat series", () => {
  it("labels its axis once per value, not '0.0% 0.0% 0.0%'", () => {
    const flat: DriftResponse["profiles"][number] = {
      ...profile,
      windows: [0, 1, 2].map((i) =>
        window(i, { signals: { ...none, toolMixDivergence: 0, payloadP95Bytes: 0 } }),
      ),
    };
    for (const format of [(v: number) => `${(v * 100).toFixed(1)}%`, (v: number) => v.toFixed(0)]) {
      const html = renderToStaticMarkup(
        createElement(DriftChart, { profile: flat, signal: "toolMixDivergence", format }),
      );
      const labels = [...html.matchAll(/<text[^>]*>(?:<tspan[^>]*>)?([^<]+)</g)].map((m) => m[1]);
      expect(labels.length).toBeGreaterThan(0);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });
});
