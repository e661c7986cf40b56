/**
 * When the relay wakes next (nextDueAt): the earliest retry of a pending effect, sooner than the
 * poll interval when one falls due first. Effects already claimed, settled, or of a kind waiting
 * for its canary do not count: waking for them would claim nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { nextDueAt } from "@/db/queries/effects";
import { useTestDatabase } from "../helpers/db";
import { at, insertEffect } from "./effect-rows";

const effect = (id: string, kind: string, status: string, dueIn: number) =>
  insertEffect({ id, kind, status, dueIn });

beforeEach(async () => {
  await useTestDatabase({ seed: false });
});

describe("nextDueAt", () => {
  it("is null with no pending effect", async () => {
    expect(await nextDueAt()).toBeNull();
    await effect("a", "payment.refund", "in_flight", 1);
    await effect("b", "payment.refund", "succeeded", 2);
    await effect("c", "mail.refund_failed", "needs_attention", 3);
    expect(await nextDueAt()).toBeNull();
  });

  it("is the earliest pending effect's next attempt, whatever was inserted first", async () => {
    await effect("late", "payment.refund", "pending", 50);
    await effect("claimed", "payment.refund", "in_flight", 1);
    await effect("soon", "mail.refund_succeeded", "pending", 20);
    await effect("later", "warehouse.address_changed", "pending", 30);
    expect(await nextDueAt()).toEqual(at(20));
    expect(await nextDueAt({ excludeKinds: [] })).toEqual(at(20));
  });

  it("leaves out the kinds waiting for their canary", async () => {
    await effect("soon", "mail.refund_succeeded", "pending", 20);
    await effect("later", "warehouse.address_changed", "pending", 30);
    await effect("late", "payment.refund", "pending", 50);
    expect(await nextDueAt({ excludeKinds: ["mail.refund_succeeded"] })).toEqual(at(30));
    expect(
      await nextDueAt({ excludeKinds: ["mail.refund_succeeded", "warehouse.address_changed"] }),
    ).toEqual(at(50));
    expect(
      await nextDueAt({
        excludeKinds: ["mail.refund_succeeded", "warehouse.address_changed", "payment.refund"],
      }),
    ).toBeNull();
  });
});
