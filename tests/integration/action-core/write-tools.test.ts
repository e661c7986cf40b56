/**
 * Every guarantee of the action core, for every registered write tool (one row each in
 * write-tool-cases.ts): propose, plan without writes, confirm once, cancel, replay, another
 * customer, TTL, supersede, stale, racing confirms across processes, and recovery after a SIGKILL
 * through the tool's findEffect().
 */
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db";
import {
  cancelAction,
  confirmAction,
  getActionForUser,
  recoverInterruptedActions,
  supersedePendingForUser,
} from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { AppError } from "@/lib/errors";
import { getTool, TOOLS } from "@/lib/tools/registry";
import { changeMark, workerEnv } from "../../helpers/db";
import { release, startWorker, type Worker } from "../../helpers/workers";
import {
  actionRow,
  auditFor,
  type Core,
  newChat,
  orderRow,
  proposeWith,
  rowCounts,
  setupCore,
} from "./fixtures";
import { WRITE_TOOL_CASES } from "./write-tool-cases";

const TTL_MS = 120_000;
const WORKERS = path.join(import.meta.dirname);

let core: Core;
beforeEach(async () => {
  core = await setupCore({ PENDING_ACTION_TTL_SECONDS: String(TTL_MS / 1000) });
});

const refusal = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, http: e.status, ...e.details };
    throw e;
  }
  throw new Error("expected a refusal");
};

it("has a row for every registered write tool", () => {
  const writeTools = TOOLS.filter((t) => t.access === "write").map((t) => t.name);
  expect(WRITE_TOOL_CASES.map((c) => c.tool).sort()).toEqual([...writeTools].sort());
});

describe.each(WRITE_TOOL_CASES.map((c) => [c.tool, c] as const))("%s", (_name, tc) => {
  const statuses = async (id: string) => (await auditFor(core.db, id)).map((e) => e.status);
  const propose = async (userId = core.anna, chat?: string, now?: Date) =>
    proposeWith(
      tc.tool,
      userId,
      chat ?? (await newChat(core.db, userId)),
      tc.args,
      now ? { now } : {},
    );

  it("proposes: a pending action with its plan, audited, and nothing written", async () => {
    const before = await rowCounts(core.db);
    const action = await propose();
    expect(action).toMatchObject({
      tool: tc.tool,
      status: "pending",
      arguments: tc.args,
      plan: { effect: tc.tool, eligible: true, externalRequests: 0 },
      result: null,
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required"]);
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
    expect(await rowCounts(core.db)).toEqual({
      ...before,
      pendingActions: before.pendingActions + 1,
      auditEvents: before.auditEvents + 1,
    });
  });

  it("plan() is a dry run: no database change at all", async () => {
    const tool = getTool(tc.tool)!;
    if (tool.access !== "write") throw new Error("not a write tool");
    const chatId = await newChat(core.db, core.anna);
    const before = await rowCounts(core.db);
    const changes = await changeMark();
    const planned = await tool.plan(tool.args.parse(tc.args), {
      userId: core.anna,
      chatId,
      now: new Date(),
    });
    expect(planned.target).toEqual({ type: "order", id: tc.orderId, version: 1 });
    expect(await changeMark()).toBe(changes);
    expect(await rowCounts(core.db)).toEqual(before);
  });

  it("Confirm executes once; a second Confirm is already decided", async () => {
    const action = await propose();
    const { action: done, result } = await confirmAction({
      actionId: action.id,
      userId: core.anna,
    });
    expect(done.status).toBe("executed");
    expect(result?.createdNow).toBe(true);
    expect(await tc.effects(core.db, tc.orderId)).toEqual([
      expect.objectContaining({ operationId: action.id }),
    ]);
    expect(await orderRow(core.db, tc.orderId)).toMatchObject({
      status: tc.statusAfter,
      version: 2,
    });
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toEqual({
      code: "already_decided",
      http: 409,
      status: "executed",
    });
    expect(await statuses(action.id)).toEqual(["confirmation_required", "success"]);
    expect((await getActionForUser({ actionId: action.id, userId: core.anna }))?.result).toEqual(
      result,
    );
  });

  it("Cancel writes nothing, and Confirm afterwards has nothing to confirm", async () => {
    const action = await propose();
    expect((await cancelAction({ actionId: action.id, userId: core.anna })).action.status).toBe(
      "cancelled",
    );
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "already_decided",
      status: "cancelled",
    });
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
    expect((await orderRow(core.db, tc.orderId)).version).toBe(1);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "cancelled"]);
  });

  it("replay: asking again after it executed answers with the existing effect, no card", async () => {
    const action = await propose();
    const first = (await confirmAction({ actionId: action.id, userId: core.anna })).result;
    const again = await executeToolCall(tc.tool, tc.args, {
      userId: core.anna,
      chatId: await newChat(core.db, core.anna),
    });
    expect(again).toMatchObject({ kind: "existing", data: { ...first, createdNow: false } });
    expect(await tc.effects(core.db, tc.orderId)).toHaveLength(1);
  });

  it("another customer can neither see, confirm nor cancel it, nor propose on Anna's order", async () => {
    const action = await propose();
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.boris })),
    ).toMatchObject({ code: "not_found", http: 404 });
    expect(
      await refusal(async () => await cancelAction({ actionId: action.id, userId: core.boris })),
    ).toMatchObject({
      code: "not_found",
    });
    expect(await getActionForUser({ actionId: action.id, userId: core.boris })).toBeNull();
    const theirs = await executeToolCall(tc.tool, tc.args, {
      userId: core.boris,
      chatId: await newChat(core.db, core.boris),
    });
    expect(theirs).toMatchObject({
      kind: "error",
      status: "business_error",
      code: "order_not_found",
    });
    // And Anna cannot reach Boris's order of the same kind.
    const foreign = await executeToolCall(
      tc.tool,
      { ...tc.args, orderId: tc.borisOrderId },
      { userId: core.anna, chatId: await newChat(core.db, core.anna) },
    );
    expect(foreign).toMatchObject({ kind: "error", code: "order_not_found" });
    expect((await actionRow(core.db, action.id)).status).toBe("pending");
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
  });

  it("after the TTL, Confirm answers 410 expired and writes nothing", async () => {
    const t0 = new Date();
    const action = await propose(core.anna, await newChat(core.db, core.anna), t0);
    const late = new Date(t0.getTime() + TTL_MS + 1);
    expect(
      await refusal(
        async () => await confirmAction({ actionId: action.id, userId: core.anna, now: late }),
      ),
    ).toMatchObject({ code: "expired", http: 410 });
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "expired"]);
  });

  it("supersede: a newer proposal in the chat, or a new chat, replaces the pending one", async () => {
    const chat = await newChat(core.db, core.anna);
    const first = await propose(core.anna, chat);
    const second = await propose(core.anna, chat);
    expect((await actionRow(core.db, first.id)).status).toBe("superseded");
    expect(
      await refusal(async () => await confirmAction({ actionId: first.id, userId: core.anna })),
    ).toMatchObject({
      code: "superseded",
      http: 409,
    });
    const other = await newChat(core.db, core.anna);
    expect(await supersedePendingForUser({ userId: core.anna, exceptChatId: other })).toBe(1);
    expect((await actionRow(core.db, second.id)).status).toBe("superseded");
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
  });

  it("stale: the order changed between plan and Confirm, so nothing is written", async () => {
    const action = await propose();
    await tc.changeTarget(core.db, tc.orderId, core.staff);
    expect(
      await refusal(async () => await confirmAction({ actionId: action.id, userId: core.anna })),
    ).toMatchObject({
      code: "stale",
      http: 409,
      status: "stale",
    });
    expect((await actionRow(core.db, action.id)).status).toBe("stale");
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "stale"]);
  });

  // Starting four tsx processes takes a while on a loaded machine; the race itself is short.
  it("racing confirms from 4 processes execute it exactly once", { timeout: 120_000 }, async () => {
    const action = await propose();
    await closeDb(); // The workers own the file during the race.
    const lines = await race(core.file, core.anna, [
      [action.id, action.id],
      [action.id, action.id],
      [action.id, action.id],
      [action.id, action.id],
    ]);
    core.db = getDb();
    const wins = lines.filter((l) => l.ok);
    expect(wins).toEqual([expect.objectContaining({ createdNow: true })]);
    expect(lines.filter((l) => !l.ok)).toEqual(
      Array(7).fill(expect.objectContaining({ code: "already_decided", status: "executed" })),
    );
    expect(await tc.effects(core.db, tc.orderId)).toHaveLength(1);
    expect(await statuses(action.id)).toEqual(["confirmation_required", "success"]);
  });

  it("SIGKILL after the effect committed: recovery finds it (findEffect) and marks executed", async () => {
    const withEffect = await propose();
    await closeDb();
    expect(await crash(core.file, core.anna, withEffect.id, "effect")).toBe("SIGKILL");
    core.db = getDb();
    expect((await actionRow(core.db, withEffect.id)).status).toBe("executing");
    expect(await recoverInterruptedActions()).toEqual({ executed: 1, failed: 0 });
    const row = await actionRow(core.db, withEffect.id);
    expect(row.status).toBe("executed");
    expect(row.result).toMatchObject({ createdNow: true });
    expect(await tc.effects(core.db, tc.orderId)).toEqual([
      expect.objectContaining({ operationId: withEffect.id }),
    ]);
    expect(await statuses(withEffect.id)).toEqual(["confirmation_required", "success"]);
  });

  it("SIGKILL after the claim only: recovery marks it failed, nothing written", async () => {
    const claimed = await propose();
    await closeDb();
    expect(await crash(core.file, core.anna, claimed.id, "claim")).toBe("SIGKILL");
    core.db = getDb();
    expect(await recoverInterruptedActions()).toEqual({ executed: 0, failed: 1 });
    expect(await actionRow(core.db, claimed.id)).toMatchObject({
      status: "failed",
      errorCode: "interrupted",
    });
    expect(await tc.effects(core.db, tc.orderId)).toEqual([]);
  });
});

type Line = { actionId: string; ok: boolean; createdNow?: boolean; code?: string; status?: string };

function spawnWorker(file: string, script: string, args: string[]): Worker {
  return startWorker(path.join(WORKERS, script), args, {
    ...process.env,
    ...workerEnv(file),
    SEED_DEMO: "0",
  });
}

/** Starts one confirm worker per job, releases them together, collects every line they print. */
async function race(file: string, userId: string, jobs: string[][]): Promise<Line[]> {
  const { codes, lines } = await release<Line>(
    jobs.map((ids) => spawnWorker(file, "confirm-worker.ts", [userId, ...ids])),
  );
  expect(codes.every((c) => c === 0)).toBe(true);
  return lines;
}

/** Runs crash-worker.ts, which kills itself with SIGKILL; resolves with the signal it died of. */
function crash(file: string, userId: string, actionId: string, mode: "effect" | "claim") {
  const { child } = spawnWorker(file, "crash-worker.ts", [userId, actionId, mode]);
  return new Promise<NodeJS.Signals | null>((r) => child.on("exit", (_code, signal) => r(signal)));
}
