/**
 * The payment provider of this process: Stripe when STRIPE_SECRET_KEY is set, otherwise the
 * built-in ledger. Built once per configuration (tests switch the environment between files).
 */
import "server-only";
import { env } from "@/lib/env";
import { ledgerProvider } from "./ledger";
import { stripeProvider } from "./stripe";
import type { PaymentsProvider } from "./types";

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
