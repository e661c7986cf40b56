/**
 * Every audit event's duration is the time its own call took: between zero and what the caller
 * measured around it. Staff read these to find slow tools and slow confirms; a sum instead of a
 * difference, or a missing start, would show as nonsense there.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pendingActions } from "@/db/schema";
import { confirmAction } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { auditFor, auditRows, type Core, newChat, propose, refusal, setupCore } from "./fixtures";

let core: Core;
let chat: string;
beforeEach(async () => {
  core = await setupCore();
  chat = await newChat(core.db, core.anna);
});

/** Runs `fn` and answers how long it took, as a caller sees it. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

const within = (durationMs: number | null, ms: number) => {
  expect(durationMs).not.toBeNull();
  expect(durationMs!).toBeGreaterThanOrEqual(0);
  // The column holds whole milliseconds.
  expect(durationMs!).toBeLessThanOrEqual(Math.ceil(ms) + 1);
};

describe("audit durations", () => {
  it("a read-only call, a proposal, and its confirm each record their own time", async () => {
    const read = await timed(() =>
      executeToolCall("get_order_status", { orderId: "7718" }, { userId: core.anna, chatId: chat }),
    );
    expect(read.value.kind).toBe("result");
    within((await auditRows(core.db)).at(-1)!.durationMs, read.ms);

    const proposed = await timed(() =>
      propose(core.anna, chat, { orderId: "7718", reason: "damaged" }),
    );
    const events = async () => await auditFor(core.db, proposed.value.id);
    within((await events())[0]!.durationMs, proposed.ms);

    const confirmed = await timed(() =>
      confirmAction({ actionId: proposed.value.id, userId: core.anna }),
    );
    expect((await events()).at(-1)!.status).toBe("success");
    within((await events()).at(-1)!.durationMs, confirmed.ms);
  });

  it("a confirm that fails records its time too", async () => {
    const action = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    await core.db
      .update(pendingActions)
      .set({ arguments: { orderId: "9307", reason: "damaged", comment: null } })
      .where(eq(pendingActions.id, action.id));
    const failed = await timed(() =>
      refusal(confirmAction({ actionId: action.id, userId: core.anna })),
    );
    expect(failed.value.code).toBe("internal_error");
    const last = (await auditFor(core.db, action.id)).at(-1)!;
    expect(last.status).toBe("technical_error");
    within(last.durationMs, failed.ms);
  });
});
