/**
 * Confirm judges expiry (and the return window) by the time inside its write
 * transaction, not by a time read before BEGIN IMMEDIATE, which may wait for the write lock. A
 * second process holds the lock across the action's deadline; a confirm that started before the
 * deadline but got the lock after it must answer `expired` and write nothing.
 */
import { spawn } from "node:child_process";
import { beforeEach, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions/confirm";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { actionRow, type Core, newChat, propose, returnsFor, setupCore } from "./fixtures";

/**
 * A second process on the same file. It loads, says "ready", and on a line with a deadline takes
 * the write lock, says "locked", and commits only once that deadline has passed.
 */
const HOLDER = `
const fs = require("node:fs");
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
// Synchronous writes: a pipe write would wait for the event loop, which the sleep below blocks.
fs.writeSync(1, "ready\\n");
require("node:readline").createInterface({ input: process.stdin }).once("line", (until) => {
  db.exec("BEGIN IMMEDIATE");
  fs.writeSync(1, "locked\\n");
  const wait = Math.max(0, Number(until) + 50 - Date.now());
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
  db.exec("COMMIT");
  db.close();
  process.exit(0);
});
`;

async function lockHolder(file: string) {
  const child = spawn(process.execPath, ["-e", HOLDER, file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let seen = "";
  const waiters: [string, () => void][] = [];
  child.stdout!.on("data", (d: Buffer) => {
    seen += d.toString();
    for (const w of waiters.splice(0))
      if (seen.includes(w[0])) w[1]();
      else waiters.push(w);
  });
  const next = (word: string) =>
    new Promise<void>((resolve) => {
      if (seen.includes(word)) resolve();
      else waiters.push([word, resolve]);
    });
  await next("ready");
  return {
    /** Resolves once the lock is held; `released` once it is let go. */
    async holdUntil(deadline: number): Promise<{ released: Promise<void> }> {
      child.stdin!.write(`${deadline}\n`);
      await next("locked");
      return { released: exited };
    },
  };
}

describe("confirm reads the clock inside its write transaction", () => {
  let core: Core;
  beforeEach(async () => {
    core = await setupCore();
  });

  it("an action whose deadline passes while confirm waits for the write lock has expired", async () => {
    const chat = await newChat(core.db, core.anna);
    const ttlMs = env().PENDING_ACTION_TTL_SECONDS * 1000;
    const holder = await lockHolder(core.file);
    // Expires 2 s from now: after the lock is taken (slow on a loaded machine), and confirm then
    // waits at most that long, within its 5 s busy timeout.
    const action = await propose(
      core.anna,
      chat,
      { orderId: "7718", reason: "damaged" },
      { now: new Date(Date.now() - ttlMs + 2000) },
    );
    const deadline = Date.parse(action.expiresAt);
    const { released } = await holder.holdUntil(deadline);
    let error: unknown;
    try {
      await confirmAction({ actionId: action.id, userId: core.anna });
    } catch (e) {
      error = e;
    }
    await released;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("expired");
    expect((await actionRow(core.db, action.id)).status).toBe("expired");
    expect(await returnsFor(core.db, "7718")).toEqual([]);
  });
});
