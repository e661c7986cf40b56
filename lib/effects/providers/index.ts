/**
 * The payment provider of this process: Stripe when STRIPE_SECRET_KEY is set, otherwise the
 * built-in ledger. Built once per configuration (tests switch the environment between files).
 */
import "server-only";
import { env } from "@/lib/env";
import { alertWebhook } from "./alert";
import { ledgerProvider } from "./ledger";
import { stripeProvider } from "./stripe";
import type { PaymentsProvider } from "./types";
import { warehouseWebhook } from "./warehouse";

let cached: { key: string; provider: PaymentsProvider } | undefined;

export function paymentsProvider(): PaymentsProvider {
  const e = env();
  if (!e.STRIPE_SECRET_KEY) return ledgerProvider;
  const key = `${e.STRIPE_SECRET_KEY}|${e.STRIPE_API_BASE ?? ""}|${e.STRIPE_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    cached = {
      key,
      provider: stripeProvider({
        secretKey: e.STRIPE_SECRET_KEY,
        apiBase: e.STRIPE_API_BASE,
        timeoutMs: e.STRIPE_TIMEOUT_MS,
      }),
    };
  }
  return cached.provider;
}

let cachedHook: { key: string; hook: ReturnType<typeof warehouseWebhook> } | undefined;

/** The warehouse's webhook when WAREHOUSE_WEBHOOK_URL is set, else null (nothing is sent). */
export function warehouseHook(): ReturnType<typeof warehouseWebhook> | null {
  const e = env();
  if (!e.WAREHOUSE_WEBHOOK_URL || !e.WAREHOUSE_WEBHOOK_SECRET) return null;
  const key = `${e.WAREHOUSE_WEBHOOK_URL}|${e.WAREHOUSE_WEBHOOK_SECRET}|${e.STRIPE_TIMEOUT_MS}`;
  if (cachedHook?.key !== key) {
    cachedHook = {
      key,
      hook: warehouseWebhook({
        url: e.WAREHOUSE_WEBHOOK_URL,
        secret: e.WAREHOUSE_WEBHOOK_SECRET,
        // The lease check (EFFECTS_LEASE_SECONDS > 2 x STRIPE_TIMEOUT_MS) covers this one too.
        timeoutMs: e.STRIPE_TIMEOUT_MS,
      }),
    };
  }
  return cachedHook.hook;
}

let cachedAlert: { key: string; hook: ReturnType<typeof alertWebhook> } | undefined;

/** The alert webhook when ALERT_WEBHOOK_URL is set, else null (alerts are only shown to staff). */
export function alertHook(): ReturnType<typeof alertWebhook> | null {
  const e = env();
  if (!e.ALERT_WEBHOOK_URL || !e.ALERT_WEBHOOK_SECRET) return null;
  const key = `${e.ALERT_WEBHOOK_URL}|${e.ALERT_WEBHOOK_SECRET}|${e.STRIPE_TIMEOUT_MS}`;
  if (cachedAlert?.key !== key) {
    cachedAlert = {
      key,
      hook: alertWebhook({
        url: e.ALERT_WEBHOOK_URL,
        secret: e.ALERT_WEBHOOK_SECRET,
        timeoutMs: e.STRIPE_TIMEOUT_MS,
      }),
    };
  }
  return cachedAlert.hook;
}
