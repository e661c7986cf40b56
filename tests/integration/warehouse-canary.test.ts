/**
 * The integration canary for the warehouse's webhook: after its configuration changes (a new
 * WAREHOUSE_WEBHOOK_URL: another loopback receiver; its first configuration counts too), the
 * first EFFECTS_CANARY_COUNT address-change webhooks go one at a time, each confirmed (a webhook
 * cannot be looked up: the receiver's 2xx is its confirmation) before the next is sent; a
 * failure holds the rest as needs_attention, unsent. Real database (SQLite, and PostgreSQL in
 * the postgres project), real confirm, relay and staff routes; the warehouse is faked only at
 * its wire protocol (a Standard Webhooks receiver).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listEffectsRoute } from "@/app/api/staff/effects/route";
import { getEffectCanary } from "@/db/queries/effect-canaries";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { orders } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import type { EffectCanary } from "@/lib/api/schemas";
import { configFingerprint } from "@/lib/effects/canary";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { call, signIn } from "../helpers/http";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { type Core, newChat, orderRow, proposeWith, setupCore } from "./action-core/fixtures";

const ENV = {
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
  EFFECTS_CANARY_COUNT: "3",
};
const KIND = "warehouse.address_changed";

let core: Core;
let staffCookie: string;
const receivers: WebhookReceiver[] = [];
let nextOrderId = 7300;

/** Points the warehouse webhook at a new receiver: a new URL, a new configuration. */
async function newWarehouse(): Promise<{ warehouse: WebhookReceiver; fp: string }> {
  const warehouse = await startWebhookReceiver();
  receivers.push(warehouse);
  process.env.WAREHOUSE_WEBHOOK_URL = warehouse.url;
  process.env.WAREHOUSE_WEBHOOK_SECRET = warehouse.secret;
  resetEnv();
  return {
    warehouse,
    fp: configFingerprint("warehouse_webhook", [warehouse.url, warehouse.secret]),
  };
}

/** A fresh processing order of Anna's (a copy of 3004's row) whose address change is confirmed. */
async function confirmedChange(): Promise<{ actionId: string; changeId: string }> {
  const base = await orderRow(core.db, "3004");
  const id = String(nextOrderId++);
  await core.db.insert(orders).values({ ...base, id, status: "processing", version: 1 });
  const action = await proposeWith(
    "change_delivery_address",
    core.anna,
    await newChat(core.db, core.anna),
    {
      orderId: id,
      address: {
        name: "Anna Petrova",
        line1: `Torstraße ${id}`,
        line2: null,
        postalCode: "10119",
        city: "Berlin",
        country: "DE",
      },
    },
  );
  const done = await confirmAction({ actionId: action.id, userId: core.anna });
  expect(done.action.status).toBe("executed");
  return {
    actionId: action.id,
    changeId: (done.result as unknown as { changeId: string }).changeId,
  };
}

async function webhookOf(actionId: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter((e) => e.kind === KIND);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}
const webhooks = (ids: string[]) => Promise.all(ids.map(webhookOf));
const statuses = async (ids: string[]) => (await webhooks(ids)).map((e) => e.status);
/** The webhook-ids the receiver saw, in order (one per delivery, retries included). */
const sentIds = (w: WebhookReceiver) => w.deliveries.map((d) => d.id);

async function shownCanary(fp: string): Promise<EffectCanary | undefined> {
  const res = await call(listEffectsRoute, "/api/staff/effects", {}, { cookie: staffCookie });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { canaries: EffectCanary[] };
  return body.canaries.find((c) => c.kind === KIND && c.fingerprint === fp);
}

beforeAll(async () => {
  core = await setupCore(ENV);
  for (const [k, v] of Object.entries(ENV)) process.env[k] = v;
  resetEnv();
  staffCookie = await signIn("staff@example.com");
});

afterAll(async () => {
  await stopRelay();
  for (const r of receivers) await r.close();
  for (const k of ["WAREHOUSE_WEBHOOK_URL", "WAREHOUSE_WEBHOOK_SECRET", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

describe("the integration canary for the warehouse's webhook", () => {
  it("a first warehouse URL: the first webhooks go one at a time, each confirmed by its 2xx, then flow normally", async () => {
    const { warehouse, fp } = await newWarehouse();
    const changes: { actionId: string; changeId: string }[] = [];
    for (let i = 0; i < 5; i++) changes.push(await confirmedChange());
    const ids = changes.map((c) => c.actionId);

    // One relay pass at a time, in parallel pairs: never more sent than were confirmed before.
    for (let round = 0; round < 20; round++) {
      await Promise.all([runDueEffects(), runDueEffects()]);
      const canary = await getEffectCanary({ kind: KIND, fingerprint: fp });
      expect(await shownCanary(fp)).toMatchObject({
        provider: "warehouse_webhook",
        status: canary!.status,
        confirmed: canary!.confirmed,
        required: 3,
      });
      if (canary!.status === "passed") break;
      expect(canary!.status).toBe("running");
      expect(await statuses(ids)).toEqual(
        ids.map((_, i) => (i < canary!.confirmed ? "succeeded" : "pending")),
      );
      expect(warehouse.deliveries).toHaveLength(canary!.confirmed);
    }
    expect(await getEffectCanary({ kind: KIND, fingerprint: fp })).toMatchObject({
      status: "passed",
      confirmed: 3,
      currentEffectId: null,
    });
    // The three under watch went in the order they were confirmed, each once, each signed.
    expect(sentIds(warehouse).slice(0, 3)).toEqual(
      changes.slice(0, 3).map((c) => `msg_${c.changeId}`),
    );
    expect(warehouse.deliveries.every((d) => d.verified !== null)).toBe(true);
    while ((await runDueEffects()) > 0) {}
    expect(await statuses(ids)).toEqual(ids.map(() => "succeeded"));
    expect(new Set(sentIds(warehouse))).toEqual(new Set(changes.map((c) => `msg_${c.changeId}`)));
    expect(warehouse.deliveries).toHaveLength(5);
  });

  it("a retryable answer keeps the rest waiting, unsent, until the same webhook gets through", async () => {
    while ((await runDueEffects()) > 0) {}
    const { warehouse, fp } = await newWarehouse();
    warehouse.answer(503, 503);
    const changes = [await confirmedChange(), await confirmedChange()];
    const ids = changes.map((c) => c.actionId);
    for (
      let i = 0;
      i < 50 && (await getEffectCanary({ kind: KIND, fingerprint: fp }))?.confirmed !== 1;
      i++
    ) {
      await runDueEffects();
      // Until the first is confirmed, only it is ever sent.
      expect(new Set(sentIds(warehouse))).toEqual(new Set([`msg_${changes[0]!.changeId}`]));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(warehouse.deliveries.map((d) => d.status)).toEqual([503, 503, 200]);
    expect(await statuses(ids)).toEqual(["succeeded", "pending"]);
    while ((await runDueEffects()) > 0) {}
    expect(await statuses(ids)).toEqual(["succeeded", "succeeded"]);
  });

  it("a warehouse that refuses the first webhook holds the rest as needs_attention, unsent", async () => {
    while ((await runDueEffects()) > 0) {}
    const { warehouse, fp } = await newWarehouse();
    warehouse.answer(400);
    const changes = [await confirmedChange(), await confirmedChange(), await confirmedChange()];
    const ids = changes.map((c) => c.actionId);
    await runDueEffects();
    const [first] = await webhooks(ids);
    expect(first).toMatchObject({ status: "failed", lastErrorCode: "http_400" });
    expect(await getEffectCanary({ kind: KIND, fingerprint: fp })).toMatchObject({
      status: "held",
      confirmed: 0,
      failedEffectId: first!.id,
    });
    // The next pass holds the rest instead of sending them; a change confirmed later too.
    await runDueEffects();
    ids.push((await confirmedChange()).actionId);
    await runDueEffects();
    const rest = (await webhooks(ids)).slice(1);
    expect(rest.map((e) => [e.status, e.lastErrorCode])).toEqual(
      rest.map(() => ["needs_attention", "canary_held"]),
    );
    expect(sentIds(warehouse)).toEqual([`msg_${changes[0]!.changeId}`]);
    expect(await shownCanary(fp)).toMatchObject({ status: "held", failedEffectId: first!.id });
  });
});
