/**
 * Which configured providers the effects canary watches, from the environment: Stripe when its
 * key is set, the warehouse webhook only with both its address and its secret, and each write at
 * the store only when Medusa is the backend with an address and a key; and the configuration's
 * fingerprint, which changes with any part of it and shows nothing of the key.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { configFingerprint, providerConfigs } from "@/lib/effects/canary";
import { EFFECT_KINDS } from "@/lib/effects/kinds";
import { resetEnv } from "@/lib/env";

const VARS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_API_BASE",
  "WAREHOUSE_WEBHOOK_URL",
  "WAREHOUSE_WEBHOOK_SECRET",
  "STORE_BACKEND",
  "MEDUSA_URL",
  "MEDUSA_API_KEY",
] as const;
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));

function withEnv(vars: Partial<Record<(typeof VARS)[number], string>>) {
  for (const k of VARS) delete process.env[k];
  Object.assign(process.env, vars);
  resetEnv();
  return providerConfigs().map((c) => [c.kind, c.provider, c.material]);
}

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
});

const STORE_KINDS = EFFECT_KINDS.filter((k) => k.startsWith("store."));
const hookSecret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;

describe("the providers the canary watches", () => {
  it("none configured: none watched (the ledger, mail and our own store are ours)", () => {
    expect(withEnv({})).toEqual([]);
  });

  it("Stripe by its key and API base", () => {
    expect(withEnv({ STRIPE_SECRET_KEY: "sk_test_1" })).toEqual([
      ["payment.refund", "stripe", ["sk_test_1", ""]],
    ]);
    expect(
      withEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_API_BASE: "http://127.0.0.1:9" }),
    ).toEqual([["payment.refund", "stripe", ["sk_test_1", "http://127.0.0.1:9"]]]);
  });

  it("the warehouse webhook only with both its address and its secret", () => {
    // (An address without a secret is refused by the configuration itself.)
    expect(withEnv({ WAREHOUSE_WEBHOOK_SECRET: hookSecret })).toEqual([]);
    expect(
      withEnv({
        WAREHOUSE_WEBHOOK_URL: "https://wh.example/hook",
        WAREHOUSE_WEBHOOK_SECRET: hookSecret,
      }),
    ).toEqual([
      ["warehouse.address_changed", "warehouse_webhook", ["https://wh.example/hook", hookSecret]],
      ["warehouse.event", "warehouse_webhook", ["https://wh.example/hook", hookSecret]],
    ]);
  });

  it("each write at the store, only with Medusa as the backend, its address and its key", () => {
    const medusa = { MEDUSA_URL: "http://127.0.0.1:9000", MEDUSA_API_KEY: "sk_medusa" };
    expect(withEnv({ ...medusa, STORE_BACKEND: "medusa" })).toEqual(
      STORE_KINDS.map((kind) => [kind, "medusa", ["http://127.0.0.1:9000", "sk_medusa"]]),
    );
    expect(STORE_KINDS.length).toBeGreaterThan(1);
    expect(withEnv({ ...medusa, STORE_BACKEND: "builtin" })).toEqual([]);
  });
});

describe("a configuration's fingerprint", () => {
  it("16 hex digits, the same for the same configuration, another for any change, no key in it", () => {
    const fp = configFingerprint("stripe", ["sk_live_abcdef", ""]);
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    expect(configFingerprint("stripe", ["sk_live_abcdef", ""])).toBe(fp);
    expect(configFingerprint("stripe", ["sk_live_abcdeg", ""])).not.toBe(fp);
    expect(configFingerprint("stripe", ["sk_live_abcdef", "http://x"])).not.toBe(fp);
    expect(configFingerprint("medusa", ["sk_live_abcdef", ""])).not.toBe(fp);
    // Not a plain hash of the material: without the server's secret a guess cannot be checked.
    const plain = createHash("sha256")
      .update(JSON.stringify(["effects-canary", "stripe", "sk_live_abcdef", ""]))
      .digest("hex");
    expect(plain.startsWith(fp)).toBe(false);
  });
});
