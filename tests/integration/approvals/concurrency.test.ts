/**
 * Four-eyes approval under real concurrency, on both databases: approvals of one action raced
 * from six processes, and an approval racing the expiry sweep at the deadline. Apart from
 * core.test.ts because its workers are processes of their own: Stryker's runs
 * (vitest.mutation.config.ts) leave such suites out, since the code those processes run has no
 * mutant switched on.
 */
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db";
import { confirmAction } from "@/lib/actions";
import { workerEnv } from "../../helpers/db";
import { release, startWorker } from "../../helpers/workers";
import { actionRow, auditFor, type Core, returnsFor } from "../action-core/fixtures";
import { proposeBike, setupApprovalCore } from "./fixtures";

const WORKER = path.join(import.meta.dirname, "approval-worker.ts");

let core: Core;
beforeEach(async () => {
  core = await setupApprovalCore();
});

const bike = (now?: Date) => proposeBike(core, now);

type Line = { actionId?: string; ok?: boolean; code?: string; status?: string; swept?: number };

async function race(
  file: string,
  jobs: string[][],
  extraEnv: Record<string, string> = {},
): Promise<Line[]> {
  const env = { ...process.env, ...workerEnv(file), SEED_DEMO: "0", ...extraEnv };
  const { codes, lines } = await release<Line>(jobs.map((args) => startWorker(WORKER, args, env)));
  expect(codes.every((c) => c === 0)).toBe(true);
  return lines;
}

describe("approvals under real concurrency", () => {
  it("24 approvals of one action from 6 processes execute it exactly once", {
    timeout: 180_000,
  }, async () => {
    const a = await bike();
    await confirmAction({ actionId: a.id, userId: core.anna });
    await closeDb();
    const lines = await race(
      core.file,
      Array.from({ length: 6 }, () => ["approve", core.staff, a.id, a.id, a.id, a.id]),
    );
    core.db = getDb();
    expect(lines).toHaveLength(24);
    expect(lines.filter((l) => l.ok)).toEqual([expect.objectContaining({ status: "executed" })]);
    expect(lines.filter((l) => !l.ok).map((l) => l.code)).toEqual(
      Array(23).fill("already_decided"),
    );
    expect(await returnsFor(core.db, "2890")).toHaveLength(1);
    expect((await auditFor(core.db, a.id)).map((e) => e.status)).toEqual([
      "confirmation_required",
      "awaiting_approval",
      "success",
    ]);
  });

  it("an approval racing the expiry sweep at the deadline: exactly one wins, audited once", {
    timeout: 180_000,
  }, async () => {
    const t0 = new Date();
    const a = await bike(t0);
    await confirmAction({ actionId: a.id, userId: core.anna, now: t0 });
    const deadline = (await actionRow(core.db, a.id)).expiresAt.getTime();
    await closeDb();
    // The approver's clock is just before the deadline, the sweep's at it: both are entitled.
    const lines = await race(
      core.file,
      [
        ["sweep", String(deadline)],
        ["approve", core.staff, a.id],
        ["sweep", String(deadline)],
        ["approve", core.staff, a.id],
      ],
      { APPROVE_AT: String(deadline - 1) },
    );
    core.db = getDb();
    const row = await actionRow(core.db, a.id);
    expect(["executed", "expired"]).toContain(row.status);
    const swept = lines.reduce((n, l) => n + (l.swept ?? 0), 0);
    const approved = lines.filter((l) => l.ok).length;
    expect(swept + approved).toBe(1);
    expect(await returnsFor(core.db, "2890")).toHaveLength(row.status === "executed" ? 1 : 0);
    const finals = (await auditFor(core.db, a.id)).map((e) => e.status).slice(2);
    expect(finals).toEqual([row.status === "executed" ? "success" : "expired"]);
  });
});
