/**
 * The corridor's arithmetic and the canary's judgement of one window, without a database: the
 * rules docs/operations.md states, each on its own.
 */
import { describe, expect, it } from "vitest";
import { canaryBreaches } from "@/lib/chat/candidate/canary";
import {
  breaches,
  corridorOf,
  jsDivergence,
  quantile,
  type Signals,
  type ToolMix,
  type TurnSignal,
  toolMixCorridor,
  toolMixDivergence,
  windowSignals,
} from "@/lib/chat/candidate/corridor";

const signals = (over: Partial<Signals>): Signals => ({
  errorRate: 0,
  refusalShare: 0,
  declinedWriteShare: 0,
  toolCallShare: 0.5,
  latencyP50Ms: 800,
  latencyP95Ms: 1000,
  contextP50Tokens: 400,
  contextP95Tokens: 600,
  payloadP50Bytes: 300,
  payloadP95Bytes: 900,
  toolMixDivergence: null,
  ...over,
});

describe("the drift corridor", () => {
  it("is median ± 3 scaled MADs, robust to an odd baseline window", () => {
    const baseline = [1000, 1010, 990, 1005, 995, 5000].map((l) => signals({ latencyP95Ms: l }));
    const band = corridorOf(baseline)!.latencyP95Ms!;
    // Median 1002.5; one 5000 moves neither the median nor the MAD much.
    expect(band.low).toBeGreaterThan(900);
    expect(band.high).toBeLessThan(1150);
    expect(breaches(signals({ latencyP95Ms: 2000 }), corridorOf(baseline))).toEqual([
      "latencyP95Ms",
    ]);
    expect(breaches(signals({ latencyP95Ms: 1020 }), corridorOf(baseline))).toEqual([]);
  });

  it("scales the MAD by 1.4826 where the MAD decides: exact bounds, and a value between 3 MADs and 3 scaled MADs is inside", () => {
    // Median 1000; absolute deviations 0, 100, 100, 200, 200, so MAD 100. The half-width is
    // 3 × 1.4826 × 100 = 444.78, far above the floor (a tenth of 1000, 100).
    const baseline = [1000, 1200, 800, 1100, 900].map((l) => signals({ latencyP95Ms: l }));
    const band = corridorOf(baseline)!.latencyP95Ms!;
    expect(band.low).toBeCloseTo(555.22, 6);
    expect(band.high).toBeCloseTo(1444.78, 6);
    // Outside 3 unscaled MADs (1300), inside 3 scaled ones.
    expect(breaches(signals({ latencyP95Ms: 1400 }), corridorOf(baseline))).toEqual([]);
    expect(breaches(signals({ latencyP95Ms: 600 }), corridorOf(baseline))).toEqual([]);
    expect(breaches(signals({ latencyP95Ms: 1445 }), corridorOf(baseline))).toEqual([
      "latencyP95Ms",
    ]);
    expect(breaches(signals({ latencyP95Ms: 555 }), corridorOf(baseline))).toEqual([
      "latencyP95Ms",
    ]);
  });

  it("has a floor, so identical windows do not make every wobble a breach", () => {
    const c = corridorOf([signals({}), signals({}), signals({})])!;
    expect(c.errorRate).toEqual({ low: -0.05, high: 0.05 });
    expect(c.latencyP95Ms).toEqual({ low: 900, high: 1100 });
    expect(breaches(signals({ errorRate: 0.04 }), c)).toEqual([]);
    expect(breaches(signals({ errorRate: 0.06 }), c)).toEqual(["errorRate"]);
  });

  it("gives no corridor below three baseline windows, and so no breach", () => {
    expect(corridorOf([signals({}), signals({})])).toBeNull();
    expect(breaches(signals({ errorRate: 1 }), null)).toEqual([]);
  });

  it("aggregates turns into shares and nearest-rank quantiles", () => {
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(quantile([], 0.5)).toBeNull();
    const at = new Date(0);
    const s = windowSignals([
      {
        at,
        failed: true,
        refusals: 0,
        declined: false,
        tools: ["get_order_status"],
        latencyMs: 100,
        inputTokens: 10,
        payloadBytes: 200,
      },
      {
        at,
        failed: false,
        refusals: 2,
        declined: true,
        tools: [],
        latencyMs: 300,
        inputTokens: null,
        payloadBytes: 0,
      },
    ]);
    expect(s).toMatchObject({
      errorRate: 0.5,
      refusalShare: 0.5,
      declinedWriteShare: 0.5,
      toolCallShare: 0.5,
      latencyP95Ms: 300,
      contextP95Tokens: 10,
      payloadP50Bytes: 0,
      payloadP95Bytes: 200,
      // No baseline to diverge from.
      toolMixDivergence: null,
    });
  });

  it("leaves a payload within its floor alone, and breaches a doubled one", () => {
    const c = corridorOf([signals({}), signals({}), signals({})])!;
    // A tenth of 900 is under the 100-byte floor.
    expect(c.payloadP95Bytes).toEqual({ low: 800, high: 1000 });
    expect(breaches(signals({ payloadP95Bytes: 950 }), c)).toEqual([]);
    expect(breaches(signals({ payloadP95Bytes: 1800 }), c)).toEqual(["payloadP95Bytes"]);
  });
});

describe("the tool mix", () => {
  const mix = (counts: Record<string, number>): ToolMix => new Map(Object.entries(counts));

  it("diverges 0 for the same shares, 1 with no tool in common, in between otherwise", () => {
    expect(jsDivergence(mix({ a: 2, b: 2 }), mix({ a: 5, b: 5 }))).toBe(0);
    expect(jsDivergence(mix({ a: 3 }), mix({ b: 3 }))).toBe(1);
    const d = jsDivergence(mix({ a: 3, b: 1 }), mix({ a: 1, b: 3 }))!;
    expect(d).toBeGreaterThan(0.15);
    expect(d).toBeLessThan(0.2);
    expect(jsDivergence(mix({}), mix({ a: 1 }))).toBeNull();
  });

  it("has a one-sided corridor from the baseline, leave-one-out, with a floor", () => {
    const baseline = [
      mix({ get_order_status: 6, cancel_order: 1 }),
      mix({ get_order_status: 5, cancel_order: 2 }),
      mix({ get_order_status: 6, cancel_order: 1 }),
      mix({ get_order_status: 7, cancel_order: 1 }),
    ];
    const band = toolMixCorridor(baseline)!;
    expect(band.low).toBe(0);
    expect(band.high).toBeGreaterThanOrEqual(0.05);
    expect(band.high).toBeLessThan(0.2);
    expect(toolMixCorridor(baseline.slice(0, 2))).toBeNull();

    const turn = (tools: string[]): TurnSignal => ({
      at: new Date(0),
      failed: false,
      refusals: 0,
      declined: false,
      tools,
      latencyMs: 100,
      inputTokens: 10,
      payloadBytes: 10,
    });
    const corridor = corridorOf(
      baseline.map(() => signals({})),
      baseline,
    );
    // The same mix as the baseline: inside.
    const same = windowSignals(
      [
        turn(["get_order_status", "get_order_status", "get_order_status"]),
        turn(["get_order_status", "get_order_status", "get_order_status", "cancel_order"]),
      ],
      baseline,
    );
    expect(same.toolMixDivergence!).toBeLessThan(band.high);
    expect(breaches(same, corridor)).not.toContain("toolMixDivergence");
    // The model turns to a tool the baseline hardly used: outside.
    const moved = windowSignals(
      [turn(["request_return", "request_return"]), turn(["get_order_status"])],
      baseline,
    );
    expect(breaches(moved, corridor)).toContain("toolMixDivergence");
    // Identical baseline windows: the floor keeps a small move inside.
    const flat = [mix({ a: 9, b: 1 }), mix({ a: 9, b: 1 }), mix({ a: 9, b: 1 })];
    expect(toolMixCorridor(flat)).toEqual({ low: 0, high: 0.05 });
    expect(toolMixDivergence(mix({ a: 8, b: 2 }), flat)!).toBeLessThan(0.05);
  });
});

describe("the canary's window", () => {
  const fig = (over: Partial<Parameters<typeof canaryBreaches>[0]>) => ({
    turns: 10,
    errorRate: 0,
    refusalShare: 0,
    declinedWriteShare: 0,
    latencyP95Ms: 1000,
    ...over,
  });

  it("breaches above a 20 % error rate with no live history (a fresh install)", () => {
    expect(canaryBreaches(fig({ errorRate: 0.3 }), null)).toEqual(["errorRate"]);
    expect(canaryBreaches(fig({ errorRate: 0.2 }), null)).toEqual([]);
  });

  it("is judged against live's figures in the same window", () => {
    const live = fig({ refusalShare: 0.3, latencyP95Ms: 2000 });
    expect(canaryBreaches(fig({ refusalShare: 0.45 }), live)).toEqual([]);
    expect(canaryBreaches(fig({ refusalShare: 0.55 }), live)).toEqual(["refusalShare"]);
    expect(canaryBreaches(fig({ latencyP95Ms: 4500 }), live)).toEqual(["latencyP95Ms"]);
    // Live with too few turns is no yardstick: the absolute limits apply.
    expect(canaryBreaches(fig({ refusalShare: 0.45 }), fig({ turns: 2 }))).toEqual([]);
  });

  it("a window without canary turns is no breach", () => {
    expect(canaryBreaches(fig({ turns: 0, errorRate: 1 }), null)).toEqual([]);
  });
});
