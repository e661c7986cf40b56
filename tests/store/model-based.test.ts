/**
 * Model-based tests of the store path: the code that formal/store.pml models (docs/formal.md),
 * checked against the same properties at a REAL Medusa server. Each run takes a fresh paid order
 * of Boris's (`npm run store:medusa -- order`), confirms its cancel, and fast-check generates the
 * steps that follow: relay passes; a fault armed at the proxy for the next read of the order, our
 * metadata write or the cancel (the answer lost after Medusa applied it, a 503, an answer after
 * MEDUSA_TIMEOUT_MS, the store stopping); the store back; a merchant editing the order, or
 * cancelling it as another actor (a secret API key of its own), in Medusa's admin; and a relay
 * that claimed the effect and died (its lease lapsed).
 *
 * After every step, read from Medusa's Admin API (not through the proxy) and our database:
 * - our cancel reached Medusa at most once (no blind resend after an unknown outcome);
 * - the order is cancelled only by the merchant, or with our operation id after our cancel
 *   reached it;
 * - `succeeded` only for an order we cancelled at Medusa, never for the merchant's cancel;
 *   `failed` only as order_changed_at_store (nothing cancelled) or already_cancelled_at_store
 *   (the merchant's cancel, none of ours sent);
 * - a merchant's edit before our id was on the order means our cancel is never sent (the weak
 *   form of "no write on a changed order": Medusa has no conditional write; docs/stores.md).
 * Then the faults end and the relay must settle the effect (liveness): `succeeded` with our one
 * cancel, or `failed` with none of ours. A failing case is printed shrunk, with its steps.
 *
 * Bounded for CI; `npm run test:model -- --store --runs=50` runs it longer (MODEL_RUNS).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { claimDueEffects } from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { OPERATION_METADATA_KEY } from "@/lib/store/medusa";
import { newChat, proposeWith } from "../integration/action-core/fixtures";
import {
  admin,
  adminAs,
  adminOrder,
  effectOf,
  type FaultMode,
  medusaStore,
  relayPass,
  storeSuite,
  touchAtStore,
} from "./harness";

const _medusa = medusaStore();
const script = path.resolve(import.meta.dirname, "../../scripts/store-medusa.mjs");
const KIND = "store.cancel_order";
const ENV = {
  // Dead relays' leases are lapsed by the step itself; the lease only has to outlast an attempt.
  EFFECTS_LEASE_SECONDS: "30",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  // More than a run's steps: attempts never run out, so every run must settle by itself.
  EFFECTS_MAX_ATTEMPTS: "50",
  EFFECTS_MAX_AGE_SECONDS: "86400",
  EFFECTS_POLL_SECONDS: "3600",
  // A late answer costs this much: short, so that the generated runs stay cheap.
  MEDUSA_TIMEOUT_MS: "500",
  APPROVAL_THRESHOLD_MINOR: "0",
};
/** The long mode: npm run test:model -- --store --runs=N. */
const RUNS = Number(process.env.MODEL_RUNS ?? 0) || 0;

const suite = storeSuite(ENV);
/** The merchant's own secret API key: its cancels are another actor's. */
let merchantKey = "";

beforeAll(async () => {
  merchantKey = (
    await admin<{ api_key: { token: string } }>("/admin/api-keys", {
      method: "POST",
      body: { title: "Merchant's tool (model-based)", type: "secret" },
    })
  ).api_key.token;
});

type Model = {
  /** The proxy refuses connections (a `stop` fired) until StoreBack. */
  stopped: boolean;
  /** A merchant edited the order while it did not carry our operation id yet. */
  editedBeforeOurId: boolean;
  /** The merchant cancelled the order (as its own actor, before ours reached Medusa). */
  merchantCancelled: boolean;
};
type Real = {
  displayId: string;
  ref: string;
  actionId: string;
  routes: { read: RegExp; metadata: RegExp; cancel: RegExp };
  log: string[];
};
type Cmd = fc.AsyncCommand<Model, Real>;

/** The properties, after every step: Medusa as its Admin API has it, and our effect. */
async function check(m: Model, r: Real) {
  const order = await adminOrder(r.displayId);
  const effect = await effectOf(r.actionId, KIND);
  const sent = suite.proxy.count(r.routes.cancel);
  const where = `after ${r.log.join(", ")}`;
  expect(sent, `our cancel reached Medusa more than once, ${where}`).toBeLessThanOrEqual(1);
  if (m.merchantCancelled) expect(sent, `ours after the merchant's cancel, ${where}`).toBe(0);
  else if (order.status === "canceled") {
    expect(order.metadata?.[OPERATION_METADATA_KEY], where).toBe(r.actionId);
    expect(sent, where).toBe(1);
  }
  if (effect.status === "succeeded") {
    expect(order.status, where).toBe("canceled");
    expect(m.merchantCancelled, `the merchant's cancel credited to us, ${where}`).toBe(false);
  }
  if (effect.status === "failed") {
    expect(["order_changed_at_store", "already_cancelled_at_store"], where).toContain(
      effect.lastErrorCode,
    );
    expect(sent, where).toBe(0);
    if (effect.lastErrorCode === "already_cancelled_at_store")
      expect(m.merchantCancelled, where).toBe(true);
  }
  if (m.editedBeforeOurId) expect(sent, `cancelled a changed order, ${where}`).toBe(0);
}

class Relay implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const e = await relayPass(r.actionId, KIND);
    r.log.push(`relay→${e.status}${e.lastErrorCode ? `:${e.lastErrorCode}` : ""}`);
    await check(m, r);
  }
  toString = () => "relay";
}

class Fault implements Cmd {
  constructor(
    readonly at: keyof Real["routes"],
    readonly mode: Exclude<FaultMode, "applied">,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    suite.proxy.fault(r.routes[this.at], this.mode);
    if (this.mode === "stop") m.stopped = true;
    r.log.push(String(this));
    await check(m, r);
  }
  toString = () => `fault(${this.at}, ${this.mode})`;
}

class StoreBack implements Cmd {
  check = (m: Readonly<Model>) => m.stopped;
  async run(m: Model, r: Real) {
    await suite.proxy.start();
    m.stopped = false;
    r.log.push("store back");
    await check(m, r);
  }
  toString = () => "storeBack";
}

/** Someone at the store edits the order (its updated_at moves), straight at Medusa. */
class MerchantEdit implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const before = await adminOrder(r.displayId);
    // Medusa refuses edits to a cancelled order: there is nothing for the merchant to change.
    if (before.status === "canceled") {
      r.log.push("merchant edit (cancelled: none)");
      return;
    }
    if (before.metadata?.[OPERATION_METADATA_KEY] !== r.actionId) m.editedBeforeOurId = true;
    await touchAtStore(r.displayId);
    r.log.push("merchant edit");
    await check(m, r);
  }
  toString = () => "merchantEdit";
}

/** The merchant cancels the order in Medusa's admin, with its own key (another actor). */
class MerchantCancel implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    if ((await adminOrder(r.displayId)).status === "canceled") {
      r.log.push("merchant cancel (cancelled: none)");
      return;
    }
    await adminAs(merchantKey, `/admin/orders/${r.ref}/cancel`, { method: "POST" });
    m.merchantCancelled = true;
    r.log.push("merchant cancel");
    await check(m, r);
  }
  toString = () => "merchantCancel";
}

/** A relay claimed the effect and died before it recorded anything: its lease has lapsed. */
class RelayDies implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const now = new Date();
    const held = await claimDueEffects({
      now,
      owner: "dead-relay",
      leaseUntil: new Date(now.getTime() - 1),
      limit: 10,
    });
    r.log.push(`relay dies holding ${held.length}`);
    await check(m, r);
  }
  toString = () => "relayDies";
}

const COMMANDS = [
  fc.constant(new Relay()),
  fc.constant(new Relay()),
  fc
    .tuple(
      fc.constantFrom("read" as const, "metadata" as const, "cancel" as const),
      fc.constantFrom("lose" as const, "503" as const, "late" as const, "stop" as const),
    )
    .map(([at, mode]) => new Fault(at, mode)),
  fc.constant(new StoreBack()),
  fc.constant(new MerchantEdit()),
  fc.constant(new MerchantCancel()),
  fc.constant(new RelayDies()),
];

/** A fresh paid, unshipped order of Boris's at Medusa, for one run. */
async function freshOrder(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, "order", "--customer", "boris", "--state", "processing"],
    { timeout: 60_000 },
  );
  return (JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { displayId: string }).displayId;
}

async function modelRun(cmds: Iterable<Cmd>): Promise<void> {
  const displayId = await freshOrder();
  const ref = (await adminOrder(displayId)).id;
  const chatId = await newChat(suite.core.db, suite.core.boris);
  const action = await proposeWith("cancel_order", suite.core.boris, chatId, {
    orderId: displayId,
    reason: "changed_mind",
    comment: null,
  });
  expect(
    (await confirmAction({ actionId: action.id, userId: suite.core.boris })).action.status,
  ).toBe("executed");
  const model: Model = { stopped: false, editedBeforeOurId: false, merchantCancelled: false };
  const real: Real = {
    displayId,
    ref,
    actionId: action.id,
    routes: {
      read: new RegExp(`^GET /admin/orders/${ref}$`),
      metadata: new RegExp(`^POST /admin/orders/${ref}$`),
      cancel: new RegExp(`^POST /admin/orders/${ref}/cancel$`),
    },
    log: [],
  };
  suite.proxy.clear();
  try {
    await fc.asyncModelRun(() => ({ model, real }), cmds);
    // Liveness: with the faults over, the relay settles the effect by itself.
    suite.proxy.clear();
    await suite.proxy.start();
    model.stopped = false;
    let e = await effectOf(action.id, KIND);
    for (let i = 0; i < 6 && (e.status === "pending" || e.status === "in_flight"); i++) {
      // A dead relay's claim is taken over once its lease has lapsed (it has, by construction).
      if (e.status === "in_flight")
        await suite.core.db
          .update(effects)
          .set({ leaseUntil: new Date(0) })
          .where(eq(effects.id, e.id));
      e = await relayPass(action.id, KIND);
      real.log.push(`settle→${e.status}`);
    }
    await check(model, real);
    const order = await adminOrder(displayId);
    const where = real.log.join(", ");
    if (e.status === "succeeded") {
      expect(order.status, where).toBe("canceled");
      expect(suite.proxy.count(real.routes.cancel), where).toBe(1);
    } else {
      expect(e.status, `did not settle: ${where}`).toBe("failed");
      expect(suite.proxy.count(real.routes.cancel), where).toBe(0);
      // Refused because the order changed (an edit before our id), or the merchant's cancel.
      if (e.lastErrorCode === "order_changed_at_store")
        expect(model.editedBeforeOurId, where).toBe(true);
      else expect(model.merchantCancelled, where).toBe(true);
    }
  } finally {
    suite.proxy.clear();
    await suite.proxy.start();
  }
}

/** The shapes of formal/store.pml's trails (docs/formal.md), tried before the generated runs. */
const SEEDED: Cmd[][] = [
  // Our metadata landed, its answer lost; a merchant edits; the next attempt still cancels (ours).
  [new Fault("metadata", "lose"), new Relay(), new MerchantEdit(), new Relay()],
  // A merchant edits before our first attempt: nothing is sent.
  [new MerchantEdit(), new Relay()],
  // The store stops at the cancel, and is back: one cancel.
  [new Fault("cancel", "stop"), new Relay(), new Relay(), new StoreBack(), new Relay()],
  // The cancel applied, its answer late; the relay dies; the next finds it by lookup.
  [new Fault("cancel", "late"), new Relay(), new RelayDies(), new Relay()],
  // Our metadata landed, its answer lost; the merchant cancels: not ours (the model's old gap).
  [new Fault("metadata", "lose"), new Relay(), new MerchantCancel(), new RelayDies(), new Relay()],
];

it("a store cancel under generated faults: cancelled once with our id, or not at all, and settled", {
  timeout: 600_000,
}, async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 8 }), (cmds) => modelRun(cmds)),
    {
      numRuns: RUNS || 4,
      examples: SEEDED.map((cmds) => [cmds] as [Iterable<Cmd>]),
    },
  );
});
