/**
 * The integration canary for effects (docs/effects.md, "Integration canary"). When the
 * configuration of a provider changes (a new Stripe key or base URL, a new warehouse URL or
 * secret, a new store backend), or a provider is configured for the first time, the first
 * EFFECTS_CANARY_COUNT effects of its kind go one at a time: each is released only after the one
 * before was reconciled (the provider was asked and confirmed it), and a failure holds the rest
 * of that kind as needs_attention instead of sending them.
 *
 * The state is in the database (effect_canaries), one row per kind and configuration
 * fingerprint, so it holds across instances and relays: each relay gates the kinds by the
 * fingerprint of its own configuration, which is the configuration its requests will use.
 * The built-in ledger and store are our own database, not an integration: no canary.
 */
import "server-only";
import { createHmac } from "node:crypto";
import { ensureEffectCanary } from "@/db/queries/effect-canaries";
import type { EffectCanaryStatus } from "@/db/schema";
import { authSecret } from "@/lib/auth/secret";
import { env } from "@/lib/env";
import { EFFECT_KINDS, type EffectKind } from "./kinds";

const STORE_KINDS = EFFECT_KINDS.filter((k) => k.startsWith("store."));

/** A provider configuration of this process, as the secret material its fingerprint covers. */
type ProviderConfig = { kind: EffectKind; provider: string; material: string[] };

/** Which configured external provider carries each kind, in this process. */
export function providerConfigs(): ProviderConfig[] {
  const e = env();
  const configs: ProviderConfig[] = [];
  if (e.STRIPE_SECRET_KEY)
    configs.push({
      kind: "payment.refund",
      provider: "stripe",
      material: [e.STRIPE_SECRET_KEY, e.STRIPE_API_BASE ?? ""],
    });
  if (e.WAREHOUSE_WEBHOOK_URL && e.WAREHOUSE_WEBHOOK_SECRET)
    for (const kind of ["warehouse.address_changed", "warehouse.event"] as const)
      configs.push({
        kind,
        provider: "warehouse_webhook",
        material: [e.WAREHOUSE_WEBHOOK_URL, e.WAREHOUSE_WEBHOOK_SECRET],
      });
  // Every write at the store is its own kind: each gets its own first effects under watch.
  if (e.STORE_BACKEND === "medusa" && e.MEDUSA_URL && e.MEDUSA_API_KEY)
    for (const kind of STORE_KINDS)
      configs.push({ kind, provider: "medusa", material: [e.MEDUSA_URL, e.MEDUSA_API_KEY] });
  return configs;
}

const fingerprints = new Map<string, string>();

/**
 * The configuration's fingerprint as staff see it: HMAC-SHA256 keyed with the server's secret
 * (BETTER_AUTH_SECRET or its generated file), truncated to 16 hex digits. A plain hash of an API
 * key would let anyone who sees it test guesses offline; without the server's secret they cannot.
 */
export function configFingerprint(provider: string, material: string[]): string {
  const input = JSON.stringify(["effects-canary", provider, ...material]);
  let fp = fingerprints.get(input);
  if (!fp) {
    fp = createHmac("sha256", authSecret()).update(input).digest("hex").slice(0, 16);
    // Stryker disable next-line CallExpression: the same memo: without it each call computes the same fingerprint again
    fingerprints.set(input, fp);
  }
  return fp;
}

export type CanaryGate = {
  kind: EffectKind;
  fingerprint: string;
  provider: string;
  status: Exclude<EffectCanaryStatus, "passed">;
  required: number;
  confirmed: number;
  currentEffectId: string | null;
};

/** Canaries this process saw pass: a passed canary never runs again for that configuration. */
const passed = new Set<string>();

/**
 * The kinds this process must not send freely right now: those whose configuration's canary is
 * running or held. Starts the canary of a configuration no relay has used yet.
 */
export async function canaryGates(now: Date): Promise<CanaryGate[]> {
  const required = env().EFFECTS_CANARY_COUNT;
  if (required === 0) return [];
  const gates: CanaryGate[] = [];
  for (const c of providerConfigs()) {
    const fingerprint = configFingerprint(c.provider, c.material);
    const id = `${c.kind}|${fingerprint}`;
    if (passed.has(id)) continue;
    const row = await ensureEffectCanary({
      kind: c.kind,
      fingerprint,
      provider: c.provider,
      required,
      now,
    });
    if (row.status === "passed") {
      // Stryker disable next-line CallExpression: the same: without the note, the next pass asks the database, which answers passed again
      passed.add(id);
      continue;
    }
    gates.push({
      kind: c.kind,
      fingerprint,
      provider: c.provider,
      status: row.status,
      required: row.required,
      confirmed: row.confirmed,
      currentEffectId: row.currentEffectId,
    });
  }
  return gates;
}
