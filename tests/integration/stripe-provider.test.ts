/**
 * The Stripe provider on its own, against the loopback Stripe server (the real `stripe` SDK at
 * its wire protocol): which answers are final and which leave the outcome unknown, what the
 * lookup makes of a refund that failed or was canceled, and the client's options. The relay's
 * use of it (retries, reconciliation, exactly one refund) is in effects.test.ts.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import type { RefundPayload } from "@/lib/effects/kinds";
import {
  classifyStripeError,
  stripeClientOptions,
  stripeProvider,
} from "@/lib/effects/providers/stripe";

let stripe: StripeServer;
let n = 0;

beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => {
  await stripe?.close();
});
beforeEach(() => stripe.clearFaults());

const provider = (secretKey = stripe.secretKey) =>
  stripeProvider({ secretKey, apiBase: stripe.url, timeoutMs: 2000 });

/** A refund of its own payment intent and operation, so no case sees another's refunds. */
function refundCase() {
  n += 1;
  const payload = {
    orderId: `80${n}`,
    paymentRef: `pi_provider_${n}`,
    amount: 1500,
    currency: "EUR",
  } as RefundPayload;
  const ref = {
    effectId: `eff-${n}`,
    actionId: `act-${n}`,
    operationId: `op-${n}`,
    idempotencyKey: `key-${n}`,
  };
  return { payload, ref };
}

describe("the Stripe provider", () => {
  it("a refund that comes back failed or canceled is final, and the lookup says the same", async () => {
    for (const status of ["failed", "canceled"] as const) {
      const { payload, ref } = refundCase();
      stripe.fail(status === "failed" ? "refund_failed" : "refund_canceled");
      expect(await provider().refund(payload, ref)).toEqual({
        kind: "definite",
        code: `refund_${status}`,
      });
      expect(await provider().findRefund(payload, ref)).toEqual({
        kind: "definite",
        code: `refund_${status}`,
      });
    }
  });

  it("the lookup: a later refund of the same operation that went through wins over a failed one", async () => {
    const { payload, ref } = refundCase();
    stripe.fail("refund_failed");
    await provider().refund(payload, ref);
    const ok = await provider().refund(payload, {
      ...ref,
      idempotencyKey: `${ref.idempotencyKey}-2`,
    });
    expect(ok.kind).toBe("succeeded");
    expect(await provider().findRefund(payload, ref)).toEqual({
      kind: "found",
      providerRef: (ok as { providerRef: string }).providerRef,
    });
  });

  it("the lookup: another operation's refund of the intent, or a refund without metadata, is not ours", async () => {
    const { payload, ref } = refundCase();
    await provider().refund(payload, {
      ...ref,
      operationId: "someone-else",
      idempotencyKey: "k-other",
    });
    expect(await provider().findRefund(payload, ref)).toEqual({ kind: "absent" });
    // A refund made by hand in Stripe's dashboard carries no metadata at all.
    stripe.refunds.push({
      id: "re_by_hand",
      object: "refund",
      amount: 100,
      currency: "eur",
      payment_intent: payload.paymentRef as string,
      metadata: undefined as unknown as Record<string, string>,
      status: "succeeded",
      created: 0,
    });
    expect(await provider().findRefund(payload, ref)).toEqual({ kind: "absent" });
  });

  it("the lookup asks about this charge only: the operation's id on another charge's refund is not ours", async () => {
    const { payload, ref } = refundCase();
    stripe.refunds.push({
      id: "re_other_charge",
      object: "refund",
      amount: 1500,
      currency: "eur",
      payment_intent: "pi_some_other_charge",
      metadata: { operation_id: ref.operationId },
      status: "succeeded",
      created: 0,
    });
    expect(await provider().findRefund(payload, ref)).toEqual({ kind: "absent" });
  });

  it("no payment reference: refused without a request, and nothing to look up", async () => {
    const { payload, ref } = refundCase();
    const before = stripe.requests.length;
    const none = { ...payload, paymentRef: null } as unknown as RefundPayload;
    expect(await provider().refund(none, ref)).toEqual({
      kind: "definite",
      code: "no_payment_reference",
    });
    expect(await provider().findRefund(none, ref)).toEqual({ kind: "absent" });
    expect(stripe.requests.length).toBe(before);
  });

  it("a lookup refused for good (a bad key) leaves the outcome unknown, never failed", async () => {
    const { payload, ref } = refundCase();
    expect(await provider("sk_test_wrong").findRefund(payload, ref)).toEqual({
      kind: "indeterminate",
      code: "invalid_request_error",
    });
    // The same refusal on a send is final: nothing was done.
    expect(await provider("sk_test_wrong").refund(payload, ref)).toEqual({
      kind: "definite",
      code: "invalid_request_error",
    });
  });

  it("a lookup that cannot reach Stripe is unknown, with the connection's code", async () => {
    const { payload, ref } = refundCase();
    stripe.setDown(true);
    try {
      expect(await provider().findRefund(payload, ref)).toEqual({
        kind: "indeterminate",
        code: "connection_error",
      });
    } finally {
      stripe.setDown(false);
    }
  });
});

describe("classifyStripeError", () => {
  const apiError = (raw: Record<string, unknown>) =>
    new Stripe.errors.StripeAPIError({ message: "x", ...raw } as never);

  it("anything that is not Stripe's error is unknown", () => {
    expect(classifyStripeError(new Error("boom"))).toEqual({
      kind: "indeterminate",
      code: "error",
    });
    expect(classifyStripeError("boom")).toEqual({ kind: "indeterminate", code: "error" });
  });

  it("no status (the connection, a timeout) is unknown, and says which", () => {
    expect(
      classifyStripeError(
        new Stripe.errors.StripeConnectionError({ message: "socket hang up" } as never),
      ),
    ).toEqual({ kind: "indeterminate", code: "connection_error" });
    expect(
      classifyStripeError(
        new Stripe.errors.StripeConnectionError({
          message: "Request aborted due to timeout being reached (300ms)",
        } as never),
      ),
    ).toEqual({ kind: "indeterminate", code: "timeout" });
    // A Stripe error without a status, of any class, is the same.
    expect(classifyStripeError(apiError({ message: "odd" }))).toEqual({
      kind: "indeterminate",
      code: "connection_error",
    });
  });

  it("5xx, 429 and 409 are unknown; a replayed one says so", () => {
    for (const statusCode of [500, 503, 429, 409]) {
      expect(classifyStripeError(apiError({ statusCode }))).toEqual({
        kind: "indeterminate",
        code: `http_${statusCode}`,
        replayed: false,
      });
    }
    expect(
      classifyStripeError(
        apiError({ statusCode: 500, headers: { "idempotent-replayed": "true" } }),
      ),
    ).toMatchObject({ replayed: true });
    expect(
      classifyStripeError(
        apiError({ statusCode: 500, headers: { "idempotent-replayed": ["true"] } }),
      ),
    ).toMatchObject({ replayed: true });
    expect(
      classifyStripeError(
        apiError({ statusCode: 500, headers: { "idempotent-replayed": "false" } }),
      ),
    ).toMatchObject({ replayed: false });
  });

  it("any other status is final, with Stripe's code, else its type, else the status", () => {
    expect(
      classifyStripeError(
        apiError({ statusCode: 400, code: "charge_disputed", type: "invalid_request_error" }),
      ),
    ).toEqual({ kind: "definite", code: "charge_disputed" });
    expect(classifyStripeError(apiError({ statusCode: 402, type: "card_error" }))).toEqual({
      kind: "definite",
      code: "card_error",
    });
    expect(classifyStripeError(apiError({ statusCode: 404 }))).toEqual({
      kind: "definite",
      code: "http_404",
    });
  });
});

describe("the client's options", () => {
  it("no retries of its own, a timeout, no telemetry, and STRIPE_API_BASE as host, port and protocol", () => {
    const base = stripeClientOptions({ secretKey: "sk", timeoutMs: 1234 });
    expect(base).toMatchObject({ maxNetworkRetries: 0, timeout: 1234, telemetry: false });
    expect(base.host).toBeUndefined();
    expect(
      stripeClientOptions({ secretKey: "sk", apiBase: "http://127.0.0.1:8123", timeoutMs: 1 }),
    ).toMatchObject({ host: "127.0.0.1", port: "8123", protocol: "http" });
    expect(
      stripeClientOptions({ secretKey: "sk", apiBase: "http://stripe.test", timeoutMs: 1 }),
    ).toMatchObject({ host: "stripe.test", port: 80, protocol: "http" });
    expect(
      stripeClientOptions({ secretKey: "sk", apiBase: "https://stripe.test", timeoutMs: 1 }),
    ).toMatchObject({ host: "stripe.test", port: 443, protocol: "https" });
  });
});
