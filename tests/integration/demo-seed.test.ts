/**
 * On PostgreSQL the demo store was seeded unless SEED_DEMO=0, with a staff
 * account whose password is published. The demo is now the SQLite default only; PostgreSQL seeds
 * it only with SEED_DEMO=1. The sign-in page offers one-click demo accounts only where they exist.
 * Runs on both databases (vitest's "postgres" project), with the real start-up (initDatabase).
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { orderItems, productVariants } from "@/db/schema";
import { isEmpty, seedDemoLikeUser } from "@/db/seed";
import { offeredDemoAccounts } from "@/lib/auth/demo";
import { resetEnv } from "@/lib/env";
import { onPostgres, useTestDatabase } from "../helpers/db";

describe("the demo store", () => {
  afterAll(() => {
    process.env.SEED_DEMO = "1";
    resetEnv();
  });

  it(`SEED_DEMO unset: ${onPostgres() ? "not seeded on PostgreSQL" : "seeded on SQLite"}, and the sign-in page offers what exists`, async () => {
    await useTestDatabase({ seed: "unset" });
    const offered = await offeredDemoAccounts();
    if (onPostgres()) {
      expect(await isEmpty()).toBe(true);
      expect(offered).toEqual([]);
    } else {
      expect(offered.map((a) => a.email)).toEqual([
        "anna@example.com",
        "boris@example.com",
        "staff@example.com",
      ]);
    }
  });

  it("SEED_DEMO=1 seeds it on either database", async () => {
    await useTestDatabase({ seed: true });
    expect((await offeredDemoAccounts()).map((a) => a.who)).toEqual(["anna", "boris", "staff"]);
  });

  it("SEED_DEMO=0 seeds it on neither; no demo buttons", async () => {
    await useTestDatabase({ seed: false });
    expect(await isEmpty()).toBe(true);
    expect(await offeredDemoAccounts()).toEqual([]);
  });

  it("a customer copied from Anna into a database never demo-seeded gets her lines with their variants", async () => {
    await useTestDatabase({ seed: false });
    const { orderIds } = await seedDemoLikeUser({ like: "anna", email: "copy@example.com" });
    // Twice: the catalogue is made once and then found.
    await seedDemoLikeUser({ like: "anna", email: "copy2@example.com" });
    const lines = await getDb().select().from(orderItems);
    const withVariant = lines.filter((l) => l.variantId !== null);
    expect(withVariant.length).toBeGreaterThan(0);
    const variants = new Set((await getDb().select().from(productVariants)).map((v) => v.id));
    for (const l of withVariant) expect(variants.has(l.variantId!), l.variantId!).toBe(true);
    expect(lines.some((l) => l.orderId === orderIds["4702"])).toBe(true);
  });
});
