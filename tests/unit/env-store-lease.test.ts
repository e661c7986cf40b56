/**
 * The store's lease check: an attempt at a store effect may take its longest number of requests,
 * each up to MEDUSA_TIMEOUT_MS, and the lease must outlast it, or a second relay takes the effect
 * over while the first is still sending (safe, since every step is looked up first, but wasted).
 */
import { describe, expect, it } from "vitest";
import { MEDUSA_REQUESTS_PER_ATTEMPT, parseEnv } from "@/lib/env";

const store = (lease: number, timeoutMs: number) => ({
  STORE_BACKEND: "medusa",
  MEDUSA_URL: "http://127.0.0.1:9000",
  MEDUSA_API_KEY: "sk_test_0123456789",
  MEDUSA_TIMEOUT_MS: String(timeoutMs),
  EFFECTS_LEASE_SECONDS: String(lease),
});

describe("EFFECTS_LEASE_SECONDS with a Medusa store", () => {
  it("must outlast a receipt's longest attempt: eleven requests at the timeout", () => {
    expect(MEDUSA_REQUESTS_PER_ATTEMPT).toBe(11);
    // Four times the timeout was the old check: it let a receipt outlive its lease.
    expect(() => parseEnv(store(60, 10_000))).toThrow(
      /EFFECTS_LEASE_SECONDS: must be more than 11 times MEDUSA_TIMEOUT_MS \(10000 ms\), 110 s/,
    );
    expect(() => parseEnv(store(110, 10_000))).toThrow(/EFFECTS_LEASE_SECONDS/);
    expect(parseEnv(store(111, 10_000)).EFFECTS_LEASE_SECONDS).toBe(111);
  });

  it("holds for the defaults, and says nothing without a store", () => {
    const { EFFECTS_LEASE_SECONDS: _l, MEDUSA_TIMEOUT_MS: _t, ...defaults } = store(0, 0);
    expect(parseEnv(defaults).EFFECTS_LEASE_SECONDS).toBe(60);
    expect(parseEnv({ EFFECTS_LEASE_SECONDS: "30", MEDUSA_TIMEOUT_MS: "10000" })).toMatchObject({
      EFFECTS_LEASE_SECONDS: 30,
    });
  });
});
