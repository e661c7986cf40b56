/**
 * A loopback HTTP server that speaks Stripe's refund endpoints, for the tests and the effects
 * benchmark (`npm run bench:effects`): the payment provider is the only thing faked, and only at its
 * wire protocol (the real `stripe` SDK talks to it through STRIPE_API_BASE). It lives in bench/lib,
 * which both import (as they import the HTTP customer and the server starter), so no benchmark or
 * eval depends on the test suite.
 *
 * - POST /v1/refunds (form-encoded: payment_intent, amount, metadata[...]) with Stripe's
 *   idempotency semantics: the same Idempotency-Key with the same parameters gets the stored
 *   response again (status and body, a stored 500 too, with `Idempotent-Replayed: true`); the
 *   same key with other parameters gets 400 `idempotency_error`; the same key while its first
 *   request is still being processed gets 409 `idempotency_error`.
 * - GET /v1/refunds?payment_intent=…: the refunds of that payment intent, newest first.
 * - Errors in Stripe's JSON shape: {"error": {"type", "code"?, "message"}}.
 *
 * On command it misbehaves (`fail(...)` queues faults for the next refund requests): drops the
 * connection without doing anything (`drop`, taken by the next POST whatever it is, a replay too);
 * applies the refund and then drops the connection (`drop_after_apply`), also forgetting every key
 * first (`forget_keys_and_drop`); applies it and answers 500; answers 500 without applying
 * (and replays that 500 for the key); applies it and answers only after `slowMs` (after the
 * client's timeout); declines (400); answers 429 (`rate_limited`) or 409 (`conflict`) without
 * applying or storing anything; creates a refund that ends `failed` or `canceled`.
 * `forgetKeys()` drops every stored key (Stripe prunes them after about 24 hours);
 * `setDown(true)` resets every connection until `setDown(false)`.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type StripeFault =
  /** Drop the connection before reading anything (the request never happened). */
  | "drop"
  | "drop_after_apply"
  /**
   * Applies the refund, then forgets every idempotency key and drops the connection: a client
   * that re-sends on its own, with the same key, makes a second refund.
   */
  | "forget_keys_and_drop"
  | "500_after_apply"
  | "500_without_apply"
  | "slow_after_apply"
  | "decline"
  /** 429 rate_limit_error, nothing applied and nothing stored for the key. */
  | "rate_limited"
  /** 409 idempotency_error (as if another request with the key were running), nothing applied. */
  | "conflict"
  /**
   * The refund is created but ends `failed` or `canceled` (Stripe answers 200 with that status,
   * and lists it so): no money moved, and the lookup must say so too.
   */
  | "refund_failed"
  | "refund_canceled";

export type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
  status: "succeeded" | "failed" | "canceled";
  created: number;
};

type Stored = { fingerprint: string; status: number; body: string; done: boolean };

export type StripeServer = {
  url: string;
  secretKey: string;
  /** Every refund applied, oldest first. */
  refunds: FakeRefund[];
  /** Every request received (method, path, idempotency key). */
  requests: { method: string; path: string; key: string | null }[];
  fail(...faults: StripeFault[]): void;
  /** Drops the faults queued and not yet taken (a test's next case starts clean). */
  clearFaults(): void;
  forgetKeys(): void;
  setDown(down: boolean): void;
  /** How long a `slow_after_apply` answer waits. */
  slowMs: number;
  /** The error code a `decline` answers with. */
  declineCode: string;
  /** Called after a refund is applied and before it is answered (a test kills our server here). */
  onApply?: (refund: FakeRefund) => Promise<void> | void;
  /** Called when a lookup (GET /v1/refunds) arrives, before it is answered (a test kills the relay here). */
  onLookup?: () => Promise<void> | void;
  close(): Promise<void>;
};

const json = (res: http.ServerResponse, status: number, body: string, replayed = false) => {
  res.writeHead(status, {
    "content-type": "application/json",
    "request-id": `req_${randomBytes(8).toString("hex")}`,
    ...(replayed ? { "idempotent-replayed": "true" } : {}),
  });
  res.end(body);
};

const stripeError = (type: string, message: string, code?: string) =>
  JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } });

/** Stripe's form encoding: `metadata[operation_id]=…` becomes metadata.operation_id. */
function parseForm(text: string) {
  const params: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]!] = v;
    else params[k] = v;
  }
  return { params, metadata };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startStripeServer(
  secretKey = "sk_test_loopback_0123456789",
): Promise<StripeServer> {
  const keys = new Map<string, Stored>();
  const faults: StripeFault[] = [];
  let down = false;
  const state: Omit<StripeServer, "url" | "close"> = {
    secretKey,
    refunds: [],
    requests: [],
    slowMs: 1500,
    declineCode: "charge_already_refunded",
    fail: (...f) => faults.push(...f),
    clearFaults: () => {
      faults.length = 0;
    },
    forgetKeys: () => keys.clear(),
    setDown: (d) => {
      down = d;
    },
  };

  const apply = (params: Record<string, string>, metadata: Record<string, string>) => {
    const refund: FakeRefund = {
      id: `re_${randomBytes(12).toString("hex")}`,
      object: "refund",
      amount: Number(params.amount),
      currency: "eur",
      payment_intent: params.payment_intent!,
      metadata,
      status: "succeeded",
      created: Math.floor(Date.now() / 1000),
    };
    state.refunds.push(refund);
    return refund;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    state.requests.push({ method: req.method ?? "", path: url.pathname, key });
    if (down) {
      req.socket.destroy();
      return;
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      json(res, 401, stripeError("invalid_request_error", "Invalid API Key provided."));
      return;
    }
    if (req.method === "GET" && url.pathname === "/v1/refunds") {
      await state.onLookup?.();
      if (res.destroyed) return;
      const pi = url.searchParams.get("payment_intent");
      const data = state.refunds.filter((r) => !pi || r.payment_intent === pi).reverse();
      json(res, 200, JSON.stringify({ object: "list", data, has_more: false, url: "/v1/refunds" }));
      return;
    }
    if (req.method !== "POST" || url.pathname !== "/v1/refunds") {
      json(res, 404, stripeError("invalid_request_error", `Unrecognized request URL.`));
      return;
    }
    if (faults[0] === "drop") {
      faults.shift();
      req.socket.destroy();
      return;
    }
    const body = await readBody(req);
    const { params, metadata } = parseForm(body);
    const fingerprint = [...new URLSearchParams(body)]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join("&");
    const stored = key ? keys.get(key) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        json(
          res,
          400,
          stripeError(
            "idempotency_error",
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            "idempotency_key_in_use",
          ),
        );
      } else if (!stored.done) {
        json(
          res,
          409,
          stripeError(
            "idempotency_error",
            "There is currently another in-progress request using this Idempotent Key.",
          ),
        );
      } else {
        json(res, stored.status, stored.body, true);
      }
      return;
    }
    if (!params.payment_intent?.startsWith("pi_") || !(Number(params.amount) > 0)) {
      json(res, 400, stripeError("invalid_request_error", "Invalid refund.", "parameter_invalid"));
      return;
    }
    const fault = faults.shift();
    const remember = (status: number, text: string) => {
      if (key) keys.set(key, { fingerprint, status, body: text, done: true });
    };
    if (fault === "decline") {
      const text = stripeError(
        "invalid_request_error",
        "Charge has already been refunded.",
        state.declineCode,
      );
      remember(400, text);
      json(res, 400, text);
      return;
    }
    if (fault === "rate_limited") {
      json(res, 429, stripeError("rate_limit_error", "Too many requests.", "rate_limit"));
      return;
    }
    if (fault === "conflict") {
      json(
        res,
        409,
        stripeError(
          "idempotency_error",
          "There is currently another in-progress request using this Idempotent Key.",
        ),
      );
      return;
    }
    if (fault === "500_without_apply") {
      const text = stripeError("api_error", "An unknown error occurred.");
      remember(500, text);
      json(res, 500, text);
      return;
    }
    if (key) keys.set(key, { fingerprint, status: 0, body: "", done: false });
    const refund = apply(params, metadata);
    if (fault === "refund_failed") refund.status = "failed";
    if (fault === "refund_canceled") refund.status = "canceled";
    await state.onApply?.(refund);
    const ok = JSON.stringify(refund);
    if (fault === "500_after_apply") {
      const text = stripeError("api_error", "An unknown error occurred.");
      remember(500, text);
      json(res, 500, text);
      return;
    }
    // Still "in progress" for its key while a slow answer is on its way.
    if (fault === "slow_after_apply") await new Promise((r) => setTimeout(r, state.slowMs));
    remember(200, ok);
    if (fault === "forget_keys_and_drop") keys.clear();
    if (fault === "drop_after_apply" || fault === "forget_keys_and_drop") {
      req.socket.destroy();
      return;
    }
    if (!res.destroyed) json(res, 200, ok);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
