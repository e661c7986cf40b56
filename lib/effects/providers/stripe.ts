/**
 * Stripe, through the official SDK. The relay owns retries, so the SDK's own are off
 * (maxNetworkRetries 0, and the HTTP client below for the one it makes regardless), and every
 * request has a timeout (STRIPE_TIMEOUT_MS) after which its outcome counts as unknown. STRIPE_API_BASE points the client at a Stripe-compatible server
 * (its host, port and protocol; the loopback server of the tests and the benchmark, bench/lib/stripe-server.ts).
 *
 * A refund is POST /v1/refunds {payment_intent, amount, metadata[operation_id|action_id|
 * order_id]} with the effect's Idempotency-Key. Reconciliation lists the refunds of the payment
 * intent and matches metadata.operation_id: that still works when Stripe has pruned the key
 * (it keeps them about 24 hours) and when it would replay a stored 500 for it.
 */
import "server-only";
import Stripe from "stripe";
import type { LookupOutcome, PaymentsProvider, SendOutcome } from "./types";

/**
 * The SDK re-sends a request whose connection closed (ECONNRESET, EPIPE) once, whatever
 * maxNetworkRetries says, because a stale keep-alive socket usually means the request never
 * arrived. It may have arrived and been applied: the re-send then rests on the provider still
 * holding the idempotency key, and one that pruned it refunds twice. Only the relay may decide
 * what follows an unknown outcome (a lookup first), so this client hands the SDK the same failure
 * under a code it does not retry; it still surfaces as a StripeConnectionError.
 */
class RelayOwnsRetriesHttpClient extends Stripe.HttpClient {
  private readonly inner = Stripe.createNodeHttpClient();
  override getClientName() {
    return this.inner.getClientName();
  }
  override async makeRequest(...args: Parameters<Stripe.HttpClient["makeRequest"]>) {
    try {
      return await this.inner.makeRequest(...args);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (
        typeof code === "string" &&
        Stripe.HttpClient.CONNECTION_CLOSED_ERROR_CODES.includes(code)
      )
        // Stryker disable next-line ObjectLiteral: the SDK re-sends only codes in its list; a renamed code, or none, is equally not re-sent, and classifyStripeError reads the message, never the code or the cause
        throw Object.assign(new Error((err as Error).message, { cause: err }), {
          // Stryker disable next-line StringLiteral: an empty code is, like the renamed one, not in the SDK's list of codes it re-sends
          code: `${code}_not_retried`,
        });
      throw err;
    }
  }
}

export type StripeConfig = { secretKey: string; apiBase?: string; timeoutMs: number };

/** STRIPE_API_BASE as the client's host, port and protocol. */
export function stripeClientOptions(c: StripeConfig): Stripe.StripeConfig {
  const options: Stripe.StripeConfig = {
    maxNetworkRetries: 0,
    httpClient: new RelayOwnsRetriesHttpClient(),
    timeout: c.timeoutMs,
    telemetry: false,
  };
  if (c.apiBase) {
    const url = new URL(c.apiBase);
    const protocol = url.protocol === "http:" ? "http" : "https";
    options.host = url.hostname;
    options.port = url.port || (protocol === "http" ? 80 : 443);
    options.protocol = protocol;
  }
  return options;
}

/** A response header of the error (Node's HTTP client gives the names in lower case). */
const header = (err: Stripe.errors.StripeError, name: Lowercase<string>) => {
  const v = (err.headers as Record<string, string | string[] | undefined> | undefined)?.[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Which failures leave the outcome unknown (retry, reconcile first) and which are final. */
export function classifyStripeError(err: unknown): SendOutcome {
  if (!(err instanceof Stripe.errors.StripeError)) return { kind: "indeterminate", code: "error" };
  if (err instanceof Stripe.errors.StripeConnectionError || err.statusCode === undefined) {
    return {
      kind: "indeterminate",
      code: /timeout/i.test(err.message) ? "timeout" : "connection_error",
    };
  }
  const status = err.statusCode;
  // 409: another request with this key is still being processed (ours, from an attempt whose
  // answer we lost): unknown, not refused.
  if (status >= 500 || status === 429 || status === 409) {
    return {
      kind: "indeterminate",
      code: `http_${status}`,
      replayed: header(err, "idempotent-replayed") === "true",
    };
  }
  // Stripe's own words: its error code, else its error type (`card_error`, `invalid_request_error`;
  // the SDK's `type` is its class name instead), else the status.
  return { kind: "definite", code: err.code ?? err.rawType ?? `http_${status}` };
}

export function stripeProvider(config: StripeConfig): PaymentsProvider {
  const client = new Stripe(config.secretKey, stripeClientOptions(config));
  return {
    name: "stripe",
    async refund(payload, ref) {
      if (!payload.paymentRef) return { kind: "definite", code: "no_payment_reference" };
      try {
        const refund = await client.refunds.create(
          {
            payment_intent: payload.paymentRef,
            amount: payload.amount,
            metadata: {
              operation_id: ref.operationId,
              action_id: ref.actionId,
              order_id: payload.orderId,
            },
          },
          { idempotencyKey: ref.idempotencyKey },
        );
        if (refund.status === "failed" || refund.status === "canceled")
          return { kind: "definite", code: `refund_${refund.status}` };
        return { kind: "succeeded", providerRef: refund.id };
      } catch (err) {
        return classifyStripeError(err);
      }
    },
    async findRefund(payload, ref): Promise<LookupOutcome> {
      if (!payload.paymentRef) return { kind: "absent" };
      try {
        let failed: string | null = null;
        for await (const refund of client.refunds.list({
          payment_intent: payload.paymentRef,
          limit: 100,
        })) {
          if (refund.metadata?.operation_id !== ref.operationId) continue;
          if (refund.status === "failed" || refund.status === "canceled") {
            failed = `refund_${refund.status}`;
            continue;
          }
          return { kind: "found", providerRef: refund.id };
        }
        return failed ? { kind: "definite", code: failed } : { kind: "absent" };
      } catch (err) {
        const c = classifyStripeError(err);
        // A lookup refused for good (a bad key, an unknown intent) still leaves the effect's
        // outcome unknown: retried, and in the end needs_attention, never "failed" on a guess.
        return { kind: "indeterminate", code: c.kind === "succeeded" ? "error" : c.code };
      }
    },
  };
}
