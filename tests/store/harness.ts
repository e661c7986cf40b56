/**
 * The store-backed tests' harness: a fault proxy in front of the REAL Medusa server, and the
 * Admin API reads the tests check the store with (straight to Medusa, never through the proxy).
 *
 * The proxy passes every request on and logs the writes (method and path) that reached Medusa.
 * A fault is armed for the next request whose route (`METHOD /path`) matches, and fires once:
 * - `lose`: Medusa applies the request; its answer is dropped (the connection is reset).
 * - `503`: answered 503 at once; Medusa never sees the request.
 * - `late`: Medusa applies the request; the answer is held until the client gives up
 *   (MEDUSA_TIMEOUT_MS), so our side sees a timeout.
 * - `stop`: the proxy stops at that request: the request is dropped unseen by Medusa, and every
 *   later connection is refused until `start()`. Medusa stopped, as our side sees it.
 * - `applied`: Medusa applies the request; the answer is held and `onApplied` is called (the
 *   SIGKILL test kills the relay's process there).
 * - `unfiltered`: the request reaches Medusa without its `customer_id` filter, so the answer holds
 *   every customer's orders (a store that ignored the filter, or a proxy that dropped it).
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { setStoreCustomerId } from "@/db/queries/users";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { type Core, setupCore } from "../integration/action-core/fixtures";

export type FaultMode = "lose" | "503" | "late" | "stop" | "applied" | "unfiltered";
type Fault = { route: RegExp; mode: FaultMode; onApplied?: () => void };

export type FaultProxy = {
  url: string;
  /** Every write (`POST /admin/...`) that reached Medusa, in order. */
  writes: string[];
  /** Arms a fault for the next request matching `route` (several may be armed at once). */
  fault(route: RegExp, mode: FaultMode, onApplied?: () => void): void;
  /** How many writes matching `route` reached Medusa. */
  count(route: RegExp): number;
  /** Disarms every fault not yet fired. */
  clear(): void;
  /** Listening again after a `stop` (on the same port). */
  start(): Promise<void>;
  close(): Promise<void>;
};

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const faults: Fault[] = [];
  const writes: string[] = [];
  const sockets = new Set<Socket>();
  let port = 0;

  const take = (route: string): Fault | undefined => {
    const i = faults.findIndex((f) => f.route.test(route));
    return i < 0 ? undefined : faults.splice(i, 1)[0];
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept"]) {
      const v = req.headers[name];
      if (typeof v === "string") headers[name] = v;
    }
    const route = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    const write = req.method !== "GET";
    const fault = take(route);
    if (fault?.mode === "503") {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"message":"unavailable"}');
      return;
    }
    if (fault?.mode === "stop") {
      await stopListening();
      return;
    }
    if (write) writes.push(route);
    const forwarded = new URL(req.url ?? "/", target);
    if (fault?.mode === "unfiltered") forwarded.searchParams.delete("customer_id");
    try {
      const up = await fetch(forwarded, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await up.arrayBuffer());
      if (fault?.mode === "lose") {
        req.socket.destroy();
        return;
      }
      if (fault?.mode === "late" || fault?.mode === "applied") {
        // Held until the client gives up (its timeout) or its process dies.
        fault.onApplied?.();
        await new Promise<void>((r) =>
          req.socket.destroyed ? r() : req.socket.once("close", () => r()),
        );
        return;
      }
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "" });
      res.end(body);
    } catch {
      req.socket.destroy();
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });

  async function listen() {
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  }
  async function stopListening() {
    const closed = new Promise<void>((r) => server.close(() => r()));
    for (const s of sockets) s.destroy();
    await closed;
  }

  await listen();
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    writes,
    fault: (route, mode, onApplied) => faults.push({ route, mode, onApplied }),
    count: (route) => writes.filter((w) => route.test(w)).length,
    clear: () => {
      faults.length = 0;
    },
    start: () => (server.listening ? Promise.resolve() : listen()),
    close: async () => {
      faults.length = 0;
      if (server.listening) await stopListening();
    },
  };
  return proxy;
}

/** The store the global setup started (its URL, key, customers and orders). */
export const medusaStore = () => inject("medusa");

const authOf = (apiKey: string) => ({
  authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
});

type AdminInit = { method?: string; body?: unknown };

/** Medusa's own answer, straight from its Admin API (not through the proxy), with our key. */
export const admin = <T>(path: string, init: AdminInit = {}) =>
  adminAs<T>(medusaStore().apiKey, path, init);

/** The same, as another actor at the store: a secret API key of its own (a merchant's tool). */
export async function adminAs<T>(apiKey: string, path: string, init: AdminInit = {}) {
  const r = await fetch(`${medusaStore().url}${path}`, {
    method: init.method ?? "GET",
    headers: { ...authOf(apiKey), "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  expect(r.ok).toBe(true);
  return (await r.json()) as T;
}

export type AdminOrder = {
  id: string;
  display_id: number;
  status: string;
  canceled_at: string | null;
  updated_at: string;
  metadata: Record<string, unknown> | null;
  shipping_address: { address_1: string; city: string; postal_code: string; first_name: string };
  /** Empty or absent for an order never paid. */
  payment_collections?: {
    payments: {
      refunds: { id: string; amount: number; note: string; created_by: string | null }[] | null;
    }[];
  }[];
};

/** The order at Medusa by its display id, with its status, metadata, address and refunds. */
export async function adminOrder(displayId: string): Promise<AdminOrder> {
  const { orders } = await admin<{ orders: { id: string; display_id: number }[] }>(
    "/admin/orders?fields=id,display_id&limit=100",
  );
  const o = orders.find((x) => String(x.display_id) === displayId);
  if (!o) throw new Error(`no order ${displayId} at Medusa`);
  return (
    await admin<{ order: AdminOrder }>(
      `/admin/orders/${o.id}?fields=id,display_id,status,canceled_at,updated_at,metadata,*shipping_address,payment_collections.payments.refunds.id,payment_collections.payments.refunds.amount,payment_collections.payments.refunds.note,payment_collections.payments.refunds.created_by`,
    )
  ).order;
}

/** The order's returns at Medusa that are not cancelled. */
export async function adminReturns(orderRef: string) {
  return (
    await admin<{ returns: { id: string; status: string; metadata: Record<string, unknown> }[] }>(
      `/admin/returns?order_id=${orderRef}&fields=id,status,metadata`,
    )
  ).returns.filter((r) => r.status !== "canceled");
}

export const adminRefunds = (o: AdminOrder) =>
  (o.payment_collections ?? []).flatMap((c) => c.payments.flatMap((p) => p.refunds ?? []));

/** Someone at the store edits the order (its updated_at moves). */
export async function touchAtStore(displayId: string) {
  const ref = (await adminOrder(displayId)).id;
  await admin(`/admin/orders/${ref}`, {
    method: "POST",
    body: { metadata: { packed_by: "warehouse" } },
  });
}

/** The demo store's orders of one customer in one state, in display-id order. */
export const ordersOf = (email: string, state: string) =>
  medusaStore()
    .orders.filter((o) => o.customerEmail === email && o.state === state)
    .map((o) => o.displayId);

/** The action's one effect of this kind, as our database has it now. */
export async function effectOf(actionId: string, kind: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter((e) => e.kind === kind);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** One relay pass, after the effect's backoff. */
export async function relayPass(actionId: string, kind: string): Promise<EffectRow> {
  const before = await effectOf(actionId, kind);
  const wait = before.nextAttemptAt.getTime() - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 1));
  await runDueEffects();
  return effectOf(actionId, kind);
}

/**
 * A store-backed test file's setup, registered as its beforeAll and afterAll: a fault proxy in
 * front of the real Medusa server; our core on a fresh SQLite database with `STORE_BACKEND=medusa`
 * behind that proxy and the file's `env`; the demo customers linked to their store customers.
 * Afterwards the relay is stopped, the proxy closed and the variables removed. The file's own
 * beforeAll hooks run in the order they are registered, before or after this call.
 */
export function storeSuite(env: Record<string, string> | (() => Record<string, string>)): {
  core: Core;
  proxy: FaultProxy;
} {
  const suite = {} as { core: Core; proxy: FaultProxy };
  let names: string[] = [];
  beforeAll(async () => {
    const medusa = medusaStore();
    suite.proxy = await startFaultProxy(medusa.url);
    const all = {
      // A function: what the file's own earlier beforeAll made (an SMTP server's URL).
      ...(typeof env === "function" ? env() : env),
      STORE_BACKEND: "medusa",
      MEDUSA_URL: suite.proxy.url,
      MEDUSA_API_KEY: medusa.apiKey,
    };
    names = Object.keys(all);
    suite.core = await setupCore(all);
    Object.assign(process.env, all);
    resetEnv();
    for (const c of medusa.customers) {
      const linked = await setStoreCustomerId({
        email: c.email,
        storeCustomerId: c.storeCustomerId,
      });
      expect(linked).toBe(true);
    }
  });
  afterAll(async () => {
    await stopRelay();
    await suite.proxy?.close();
    for (const k of names) delete process.env[k];
    resetEnv();
  });
  return suite;
}
