/**
 * Our process is SIGKILLed after Medusa applied a cancel and before the relay recorded it: the
 * relay runs in a child process, a proxy in front of the REAL Medusa server lets the cancel
 * through and, once Medusa has answered, kills that process before the answer reaches it. The
 * effect stays in flight; after its lease lapses, the next relay's attempt looks the order up,
 * finds it cancelled with our operation id and records it (`reconciled`): exactly one cancel.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { listEffectsForAction } from "@/db/queries/effects";
import { setStoreCustomerId } from "@/db/queries/users";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { OPERATION_METADATA_KEY } from "@/lib/store/medusa";
import { workerEnv } from "../helpers/db";
import {
  auditFor,
  type Core,
  newChat,
  proposeWith,
  setupCore,
} from "../integration/action-core/fixtures";

const medusa = inject("medusa");
const auth = { authorization: `Basic ${Buffer.from(`${medusa.apiKey}:`).toString("base64")}` };
// The lease must outlast four store requests (lib/env.ts checks it): the wait for it to lapse is
// the test's cost, so both are small.
const ENV = {
  EFFECTS_LEASE_SECONDS: "8",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "1900",
  STRIPE_TIMEOUT_MS: "1000",
};
let core: Core;
let server: http.Server;
let proxyUrl: string;
let cancels = 0;
/** Called once Medusa has answered a cancel, before the answer is passed on. */
let onCancelApplied: (() => void) | null = null;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept"]) {
      const v = req.headers[name];
      if (typeof v === "string") headers[name] = v;
    }
    const isCancel = req.method === "POST" && /\/admin\/orders\/[^/]+\/cancel$/.test(req.url ?? "");
    if (isCancel) cancels++;
    try {
      const up = await fetch(`${medusa.url}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await up.arrayBuffer());
      if (isCancel && onCancelApplied) {
        onCancelApplied();
        onCancelApplied = null;
        return;
      }
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "" });
      res.end(body);
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = { STORE_BACKEND: "medusa", MEDUSA_URL: proxyUrl, MEDUSA_API_KEY: medusa.apiKey };
  core = await setupCore({ ...ENV, ...store });
  Object.assign(process.env, ENV, store);
  resetEnv();
  for (const c of medusa.customers) {
    expect(await setStoreCustomerId({ email: c.email, storeCustomerId: c.storeCustomerId })).toBe(
      true,
    );
  }
});

afterAll(async () => {
  await stopRelay();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  for (const k of ["STORE_BACKEND", "MEDUSA_URL", "MEDUSA_API_KEY", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

it("SIGKILL after Medusa cancelled, before we recorded it: the lookup finds it, one cancel", async () => {
  const boris = medusa.orders.filter(
    (o) => o.customerEmail === "boris@example.com" && o.state === "processing",
  );
  const id = boris.at(-1)!.displayId;
  const chatId = await newChat(core.db, core.boris);
  const action = await proposeWith("cancel_order", core.boris, chatId, {
    orderId: id,
    reason: "changed_mind",
    comment: null,
  });
  expect((await confirmAction({ actionId: action.id, userId: core.boris })).action.status).toBe(
    "executed",
  );

  let child: ChildProcess | undefined;
  onCancelApplied = () => child?.kill("SIGKILL");
  child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(import.meta.dirname, "relay-worker.ts"),
    ],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...workerEnv(core.file), SEED_DEMO: "0" },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const signal = await new Promise<NodeJS.Signals | null>((r) =>
    child!.on("exit", (_code, s) => r(s)),
  );
  expect(signal).toBe("SIGKILL");

  const effectOf = async () =>
    (await listEffectsForAction({ actionId: action.id })).find(
      (e) => e.kind === "store.cancel_order",
    )!;
  const killed = await effectOf();
  expect(killed).toMatchObject({ status: "in_flight", attempts: 1 });
  const r = await fetch(
    `${medusa.url}/admin/orders?fields=id,display_id,status,canceled_at,metadata&limit=100`,
    { headers: auth },
  );
  const { orders } = (await r.json()) as {
    orders: { display_id: number; status: string; metadata: Record<string, unknown> | null }[];
  };
  const at = orders.find((o) => String(o.display_id) === id)!;
  expect(at.status).toBe("canceled");
  expect(at.metadata?.[OPERATION_METADATA_KEY]).toBe(action.id);

  // The killed relay's lease lapses; the next relay takes the effect over and looks it up first.
  const wait = killed.leaseUntil!.getTime() - Date.now();
  if (wait > 0) await new Promise((res) => setTimeout(res, wait + 5));
  await runDueEffects();
  const after = await effectOf();
  expect(after).toMatchObject({ status: "succeeded", attempts: 2 });
  expect(cancels).toBe(1);
  const outcomes = (await auditFor(core.db, action.id))
    .filter((e) => e.tool === "effect:store.cancel_order")
    .map((e) => (e.result as { outcome?: string } | null)?.outcome);
  expect(outcomes).toEqual(["reconciled"]);
});
