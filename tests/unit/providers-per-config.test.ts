/**
 * This process's providers, built from the configuration (lib/effects/providers/index.ts): the
 * built-in ledger without STRIPE_SECRET_KEY, Stripe with it; the warehouse's and the alerts'
 * webhooks only when their URL is set (a secret alone sends nothing); each built once per
 * configuration and built again when any part of it changes. What they send is in
 * stripe-provider.test.ts and ledger-and-webhook-providers.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { alertHook, paymentsProvider, warehouseHook } from "@/lib/effects/providers";
import { resetEnv } from "@/lib/env";

const KEYS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_API_BASE",
  "STRIPE_TIMEOUT_MS",
  "WAREHOUSE_WEBHOOK_URL",
  "WAREHOUSE_WEBHOOK_SECRET",
  "ALERT_WEBHOOK_URL",
  "ALERT_WEBHOOK_SECRET",
] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

function configure(vars: Partial<Record<(typeof KEYS)[number], string | undefined>>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

afterEach(() => configure(saved));

const SECRET_A = `whsec_${Buffer.from("a-warehouse-secret-of-32-bytes!!").toString("base64")}`;
const SECRET_B = `whsec_${Buffer.from("another-secret-of-thirty-two-by!").toString("base64")}`;

describe("the payments provider", () => {
  it("the ledger without a Stripe key; Stripe with one, built once per configuration", () => {
    configure({ STRIPE_SECRET_KEY: undefined });
    expect(paymentsProvider().name).toBe("ledger");
    configure({
      STRIPE_SECRET_KEY: "sk_test_one",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
      STRIPE_TIMEOUT_MS: "500",
    });
    const a = paymentsProvider();
    expect(a.name).toBe("stripe");
    expect(paymentsProvider()).toBe(a);
    configure({ STRIPE_API_BASE: "http://127.0.0.1:12112" });
    const b = paymentsProvider();
    expect(b).not.toBe(a);
    expect(b.name).toBe("stripe");
    configure({ STRIPE_TIMEOUT_MS: "600" });
    expect(paymentsProvider()).not.toBe(b);
  });

  it("the first Stripe provider of a process is built from the configuration", async () => {
    configure({ STRIPE_SECRET_KEY: "sk_test_first", STRIPE_API_BASE: undefined });
    vi.resetModules();
    const fresh = await import("@/lib/effects/providers");
    const p = fresh.paymentsProvider();
    expect(p.name).toBe("stripe");
    expect(fresh.paymentsProvider()).toBe(p);
    expect(fresh.warehouseHook()).toBeNull();
  });
});

describe("the webhooks", () => {
  it("the warehouse's: none without its URL, even with a secret; built once per configuration", async () => {
    configure({ WAREHOUSE_WEBHOOK_URL: undefined, WAREHOUSE_WEBHOOK_SECRET: undefined });
    expect(warehouseHook()).toBeNull();
    configure({ WAREHOUSE_WEBHOOK_SECRET: SECRET_A });
    expect(warehouseHook()).toBeNull();
    configure({ WAREHOUSE_WEBHOOK_URL: "http://127.0.0.1:1/hooks" });
    const a = warehouseHook();
    expect(a).not.toBeNull();
    expect(warehouseHook()).toBe(a);
    configure({ WAREHOUSE_WEBHOOK_SECRET: SECRET_B });
    const b = warehouseHook();
    expect(b).not.toBe(a);
    expect(await b?.lookup()).toEqual({ kind: "absent" });
  });

  it("the alerts': none without its URL, even with a secret; built once per configuration", async () => {
    configure({ ALERT_WEBHOOK_URL: undefined, ALERT_WEBHOOK_SECRET: undefined });
    expect(alertHook()).toBeNull();
    configure({ ALERT_WEBHOOK_SECRET: SECRET_A });
    expect(alertHook()).toBeNull();
    configure({ ALERT_WEBHOOK_URL: "http://127.0.0.1:1/alerts" });
    const a = alertHook();
    expect(a).not.toBeNull();
    expect(alertHook()).toBe(a);
    configure({ ALERT_WEBHOOK_URL: "http://127.0.0.1:2/alerts" });
    const b = alertHook();
    expect(b).not.toBe(a);
    expect(await b?.lookup()).toEqual({ kind: "absent" });
  });

  it("the first of each in a process is built from the configuration", async () => {
    configure({
      WAREHOUSE_WEBHOOK_URL: "http://127.0.0.1:1/hooks",
      WAREHOUSE_WEBHOOK_SECRET: SECRET_A,
      ALERT_WEBHOOK_URL: "http://127.0.0.1:1/alerts",
      ALERT_WEBHOOK_SECRET: SECRET_B,
    });
    vi.resetModules();
    const fresh = await import("@/lib/effects/providers");
    const hook = fresh.warehouseHook();
    expect(hook).not.toBeNull();
    expect(fresh.warehouseHook()).toBe(hook);
    const alert = fresh.alertHook();
    expect(alert).not.toBeNull();
    expect(fresh.alertHook()).toBe(alert);
  });
});
