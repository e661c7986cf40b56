/**
 * Crash safety: the production server is SIGKILLed while confirms are in flight,
 * then restarted on the same database file. Whatever the moment of the kill, no action is left
 * `executing`, every confirm answered 200 has its return row, no order has two returns, the
 * audit agrees with the tables, and a confirm whose answer was lost can simply be retried.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer, pendingActionOf } from "@/bench/lib/client";
import { returnableOrders, seedStore } from "@/bench/lib/seed";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { actionStates, brokenInvariants } from "./lib/crash-checks";
import { openReadOnly } from "./lib/db-snapshot";
import { DIST_DIR } from "./lib/world";

const PER_ROUND = 16;
type Proposal = { customer: HttpCustomer; actionId: string; orderId: string };
type Outcome = { proposal: Proposal; status: number | "lost"; requestId?: string };

/** When to pull the plug, relative to the burst of confirms. */
const KILLS: { name: string; after: { answers: number } | { ms: number } }[] = [
  { name: "after the first answer", after: { answers: 1 } },
  { name: "2 ms after sending", after: { ms: 2 } },
  { name: "after half the answers", after: { answers: PER_ROUND / 2 } },
];

let dir: string;
let dbFile: string;
let server: Server | undefined;
let port: number | undefined;
const outcomes: Outcome[] = [];

const boot = async () => {
  server = await startServer({
    distDir: DIST_DIR,
    dbPath: dbFile,
    port,
    env: { CHAT_RATE_LIMIT_PER_MINUTE: "10000", AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "10000" },
  });
  port = Number(new URL(server.url).port);
  return server;
};

async function propose(base: string, picks: { email: string; orderId: string }[]) {
  const out: Proposal[] = [];
  // A few at a time: sign-in hashing is deliberately slow.
  for (let i = 0; i < picks.length; i += 4) {
    const batch = picks.slice(i, i + 4).map(async ({ email, orderId }) => {
      const customer = await HttpCustomer.signIn(base, email);
      const chat = await customer.newChat();
      const text = `Create a return request for order ${orderId}. The item arrived damaged.`;
      const action = pendingActionOf(await customer.say(chat, text));
      if (!action) throw new Error(`no proposal for ${email} ${orderId}`);
      return { customer, actionId: action.id, orderId };
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

async function confirmAndKill(s: Server, proposals: Proposal[], after: (typeof KILLS)[0]["after"]) {
  let answers = 0;
  let killed: Promise<void> | undefined;
  const kill = () => {
    killed ??= s.stop("SIGKILL");
  };
  if ("ms" in after) setTimeout(kill, after.ms);
  const results = await Promise.all(
    proposals.map(async (proposal): Promise<Outcome> => {
      try {
        const res = await proposal.customer.decide(proposal.actionId, "confirm");
        const body = (await res.json()) as { result?: { requestId: string } };
        if ("answers" in after && ++answers >= after.answers) kill();
        return { proposal, status: res.status, requestId: body.result?.requestId };
      } catch {
        // Connection refused or reset by the kill: the customer never learned the outcome.
        return { proposal, status: "lost" };
      }
    }),
  );
  kill();
  await killed;
  return results;
}

describe("SIGKILL while confirms are in flight", () => {
  let db: Database.Database;

  beforeAll(async () => {
    ensureBuild(DIST_DIR);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-crash-"));
    dbFile = path.join(dir, "app.db");
    // 80 customers (not a multiple of 6): each gets delivered four-digit orders, most recent.
    await seedStore(dbFile, { customers: 80, orders: 480 });
    const seeded = openReadOnly(dbFile);
    const picks = returnableOrders(seeded, PER_ROUND * KILLS.length);
    seeded.close();
    expect(picks.length).toBe(PER_ROUND * KILLS.length);

    for (const [i, k] of KILLS.entries()) {
      const s = await boot();
      const proposals = await propose(s.url, picks.slice(i * PER_ROUND, (i + 1) * PER_ROUND));
      const results = await confirmAndKill(s, proposals, k.after);
      outcomes.push(...results);
    }
    await boot();
    db = openReadOnly(dbFile);
  }, 15 * 60_000);

  afterAll(async () => {
    db?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("really killed the server mid-burst: some confirms answered, some lost", () => {
    expect(outcomes.some((o) => o.status === 200)).toBe(true);
    expect(outcomes.some((o) => o.status === "lost")).toBe(true);
    // Every answer that did arrive was a success: distinct orders, all pending.
    expect(outcomes.filter((o) => o.status !== "lost").map((o) => o.status)).not.toContain(500);
  });

  it("restarts healthy", async () => {
    const res = await fetch(`${server!.url}/api/health`);
    expect(res.status).toBe(200);
  });

  it("leaves the tables and the audit consistent", () => {
    expect(brokenInvariants(db)).toEqual({});
  });

  it("kept every confirm that was answered 200, with the return it reported", () => {
    const answered = outcomes.filter((o) => o.status === 200);
    const states = actionStates(
      db,
      answered.map((o) => o.proposal.actionId),
    );
    for (const o of answered) {
      expect(states.get(o.proposal.actionId)).toEqual({
        status: "executed",
        returnId: o.requestId,
      });
    }
  });

  it("lets a customer whose answer was lost retry: done once, never twice", async () => {
    const lost = outcomes.filter((o) => o.status === "lost");
    const before = actionStates(
      db,
      lost.map((o) => o.proposal.actionId),
    );
    console.info(
      `crash: ${outcomes.length - lost.length} answered, ${lost.length} lost ` +
        `(${[...before.values()].filter((s) => s.status === "executed").length} of them done)`,
    );
    for (const o of lost) {
      const state = before.get(o.proposal.actionId)!;
      // The claim and the write commit together: a lost confirm either happened or did not.
      expect(["pending", "executed"]).toContain(state.status);
      const retry = await o.proposal.customer.decide(o.proposal.actionId, "confirm");
      const body = (await retry.json()) as { error?: { code: string } };
      if (state.status === "pending") expect(retry.status).toBe(200);
      else expect([retry.status, body.error?.code]).toEqual([409, "already_decided"]);
    }
    const after = actionStates(
      db,
      lost.map((o) => o.proposal.actionId),
    );
    for (const o of lost) expect(after.get(o.proposal.actionId)?.status).toBe("executed");
    expect(brokenInvariants(db)).toEqual({});
  });
});
