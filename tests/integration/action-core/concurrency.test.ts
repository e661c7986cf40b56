/**
 * Real concurrency: better-sqlite3 is synchronous, so racing confirms need separate processes
 * on one database file. The database (BEGIN IMMEDIATE, the conditional claim, UNIQUE order_id)
 * must make exactly one of them execute.
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db";
import { deliveryAddressChanges, orderCancellations, pendingActions } from "@/db/schema";
import { confirmAction } from "@/lib/actions";
import { AppError } from "@/lib/errors";
import { onPostgres, workerEnv } from "../../helpers/db";
import { release, startWorker } from "../../helpers/workers";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  orderRow,
  propose,
  proposeWith,
  returnsFor,
  setupCore,
} from "./fixtures";

const WORKER = path.join(import.meta.dirname, "confirm-worker.ts");
type Line = {
  actionId: string;
  ok: boolean;
  createdNow?: boolean;
  /** The tool's result (a return request here). */
  result?: { requestId?: string };
  code?: string;
  status?: string;
};

/** Starts one worker per job, releases them together, collects every line they print. */
async function race(file: string, userId: string, jobs: string[][]): Promise<Line[]> {
  const env = { ...process.env, ...workerEnv(file), SEED_DEMO: "0" };
  const { codes, lines } = await release<Line>(
    jobs.map((ids) => startWorker(WORKER, [userId, ...ids], env)),
  );
  expect(codes.every((c) => c === 0)).toBe(true);
  return lines;
}

let core: Core;
beforeEach(async () => {
  core = await setupCore();
});

describe("confirm under real concurrency", () => {
  // Eight Node processes each load the app through tsx first: on a shared 2-core machine that
  // alone can take longer than the default 30 s, so the budget covers process start-up.
  it("32 confirms of one action from 8 processes execute it exactly once", {
    timeout: 120_000,
  }, async () => {
    const action = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    await closeDb(); // Release our connection; the workers own the file during the race.
    const lines = await race(
      core.file,
      core.anna,
      Array.from({ length: 8 }, () => Array(4).fill(action.id)),
    );
    core.db = getDb();

    expect(lines).toHaveLength(32);
    const wins = lines.filter((l) => l.ok);
    expect(wins).toEqual([expect.objectContaining({ createdNow: true })]);
    expect(lines.filter((l) => !l.ok)).toEqual(
      Array(31).fill(expect.objectContaining({ code: "already_decided", status: "executed" })),
    );
    expect(await returnsFor(core.db, "7718")).toEqual([
      expect.objectContaining({ id: wins[0]!.result?.requestId }),
    ]);
    expect((await actionRow(core.db, action.id)).status).toBe("executed");
    expect((await auditFor(core.db, action.id)).map((e) => e.status)).toEqual([
      "confirmation_required",
      "success",
    ]);
  });

  it("two actions for one order confirmed at once leave one row; the other gets createdNow: false", {
    timeout: 120_000,
  }, async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    // A second pending action on the same order, as if supersede had been bypassed.
    const row = await actionRow(core.db, a.id);
    const bId = `${a.id}-b`;
    await core.db.insert(pendingActions).values({ ...row, id: bId });
    expect(
      await core.db.select().from(pendingActions).where(eq(pendingActions.status, "pending")),
    ).toHaveLength(2);
    await closeDb();
    const lines = await race(core.file, core.anna, [[a.id], [bId], [a.id], [bId]]);
    core.db = getDb();

    const wins = lines.filter((l) => l.ok);
    // Every process's answer in the message: a lost race under load shows what the loser got.
    expect(wins, JSON.stringify(lines)).toHaveLength(2);
    expect(wins.map((w) => w.createdNow).sort()).toEqual([false, true]);
    expect(new Set(wins.map((w) => w.result?.requestId)).size).toBe(1);
    expect(lines.filter((l) => !l.ok).map((l) => l.code)).toEqual([
      "already_decided",
      "already_decided",
    ]);
    expect(await returnsFor(core.db, "7718")).toHaveLength(1);
  });

  // PostgreSQL only: SQLite's BEGIN IMMEDIATE lets no other writer in during a confirm, so the
  // order cannot move between commit()'s version check and its compare-and-set there.
  it.runIf(onPostgres())(
    "an order shipped while Confirm is between its check and its compare-and-set ends stale, with nothing written",
    { timeout: 60_000 },
    async () => {
      const action = await proposeWith(
        "cancel_order",
        core.anna,
        await newChat(core.db, core.anna),
        {
          orderId: "3004",
          reason: "ordered_by_mistake",
          comment: null,
        },
      );
      // The warehouse's update holds the order's row lock and is not yet committed: Confirm still
      // reads the proposed version, inserts its cancellation and then waits on the lock.
      const warehouse = new pg.Client({ connectionString: core.file });
      await warehouse.connect();
      try {
        await warehouse.query("BEGIN");
        await warehouse.query(
          "UPDATE orders SET status = 'shipped', version = version + 1 WHERE id = '3004'",
        );
        const confirming = confirmAction({ actionId: action.id, userId: core.anna }).then(
          () => null,
          (err: unknown) => err,
        );
        await expect
          .poll(
            async () =>
              (
                await warehouse.query(
                  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                )
              ).rows[0].n,
            { timeout: 30_000 },
          )
          .toBe(1);
        await warehouse.query("COMMIT");
        const err = await confirming;
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).code).toBe("stale");
        expect((err as AppError).details).toMatchObject({
          status: "stale",
          reason: "order_changed",
        });
      } finally {
        await warehouse.end();
      }
      expect((await actionRow(core.db, action.id)).status).toBe("stale");
      expect(
        await core.db
          .select()
          .from(orderCancellations)
          .where(eq(orderCancellations.orderId, "3004")),
      ).toEqual([]);
      expect((await orderRow(core.db, "3004")).status).toBe("shipped");
      expect((await auditFor(core.db, action.id)).map((e) => e.status)).toEqual([
        "confirmation_required",
        "stale",
      ]);
    },
  );
  // The same race where only the version moves (the order is still processing): the
  // compare-and-set must match on the version, not on the status alone.
  it.runIf(onPostgres())(
    "an order whose version alone moves while Confirm is between its check and its compare-and-set ends stale, with nothing written",
    { timeout: 60_000 },
    async () => {
      const action = await proposeWith(
        "cancel_order",
        core.anna,
        await newChat(core.db, core.anna),
        { orderId: "3004", reason: "ordered_by_mistake", comment: null },
      );
      const before = await orderRow(core.db, "3004");
      const other = new pg.Client({ connectionString: core.file });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query("UPDATE orders SET version = version + 1 WHERE id = '3004'");
        const confirming = confirmAction({ actionId: action.id, userId: core.anna }).then(
          () => null,
          (err: unknown) => err,
        );
        await expect
          .poll(
            async () =>
              (
                await other.query(
                  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                )
              ).rows[0].n,
            { timeout: 30_000 },
          )
          .toBe(1);
        await other.query("COMMIT");
        const err = await confirming;
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).details).toMatchObject({
          status: "stale",
          reason: "order_changed",
        });
      } finally {
        await other.end();
      }
      expect((await actionRow(core.db, action.id)).status).toBe("stale");
      expect(
        await core.db
          .select()
          .from(orderCancellations)
          .where(eq(orderCancellations.orderId, "3004")),
      ).toEqual([]);
      const after = await orderRow(core.db, "3004");
      expect({ status: after.status, version: after.version }).toEqual({
        status: "processing",
        version: before.version + 1,
      });
    },
  );
  // change_delivery_address's compare-and-set, the same race: its in-process version check has
  // passed, so only the update's own version condition can tell that the order moved.
  it.runIf(onPostgres())(
    "change_delivery_address: an order whose version moves while Confirm is between its check and its compare-and-set ends stale, with nothing written",
    { timeout: 60_000 },
    async () => {
      const action = await proposeWith(
        "change_delivery_address",
        core.anna,
        await newChat(core.db, core.anna),
        {
          orderId: "3004",
          address: {
            name: "Anna Petrova",
            line1: "Torstraße 1",
            line2: null,
            postalCode: "10119",
            city: "Berlin",
            country: "DE",
          },
        },
      );
      const before = await orderRow(core.db, "3004");
      const other = new pg.Client({ connectionString: core.file });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query("UPDATE orders SET version = version + 1 WHERE id = '3004'");
        const confirming = confirmAction({ actionId: action.id, userId: core.anna }).then(
          () => null,
          (err: unknown) => err,
        );
        await expect
          .poll(
            async () =>
              (
                await other.query(
                  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                )
              ).rows[0].n,
            { timeout: 30_000 },
          )
          .toBe(1);
        await other.query("COMMIT");
        const err = await confirming;
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).details).toMatchObject({
          status: "stale",
          reason: "order_changed",
        });
      } finally {
        await other.end();
      }
      expect((await actionRow(core.db, action.id)).status).toBe("stale");
      expect(
        await core.db
          .select()
          .from(deliveryAddressChanges)
          .where(eq(deliveryAddressChanges.orderId, "3004")),
      ).toEqual([]);
      const after = await orderRow(core.db, "3004");
      expect({
        line1: after.deliveryLine1,
        version: after.version,
      }).toEqual({ line1: before.deliveryLine1, version: before.version + 1 });
    },
  );
});
