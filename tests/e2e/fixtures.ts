/**
 * Per-test data for the e2e suite. Every test that signs in as a customer gets its OWN customer:
 * a new user shaped like a demo one (same name, the demo password) with copies of that demo
 * customer's orders under fresh four-digit ids, written into the database of the server the test
 * talks to (its `baseURL`) by the project's own seed code (db/seed.ts `seedDemoLikeUser`).
 * So no two tests share an order, a chat, a pending action or a rate-limit counter: any spec
 * passes alone, in any order, and with several workers.
 *
 * Use it instead of @playwright/test and ask for `anna` or `boris`; quote orders through
 * `order(demoId)`:
 *
 *   import { expect, test } from "./fixtures";
 *
 *   test("a return for the coffee machine", async ({ page, anna }) => {
 *     await new SignInPage(page).as(anna);
 *     const chat = new ChatPage(page);
 *     await chat.startNewChat();
 *     await chat.ask(`Create a return request for order ${anna.order("7718")}. It arrived damaged.`);
 *   });
 *
 * Outside a test (beforeAll), call `newCustomer(baseURL, "anna")`. Staff only read, so the demo
 * staff account is shared; the demo customers themselves are left as seeded (read-only checks of
 * the one-click demo sign-in may use them). `seedTurns(baseURL, rows)` writes chat turns at the
 * times given, for pages that read earlier hours (the drift charts' closed windows).
 */
import { randomUUID } from "node:crypto";
import { test as base, expect } from "@playwright/test";
import { seedDemoLikeUser, seedTurns as seedTurnRows } from "@/db/seed";
import { DEMO_PASSWORD } from "@/db/seed-data";
import { resetEnv } from "@/lib/env";
import { databaseOf } from "./servers";

export type Customer = {
  /** The demo customer this one copies: "anna" | "boris". */
  like: DemoCustomer;
  name: string;
  email: string;
  password: string;
  /** This customer's copy of a demo order: `order("7718")` -> e.g. "5093". */
  order(demoId: string): string;
};

type DemoCustomer = "anna" | "boris";
const NAMES: Record<DemoCustomer, string> = { anna: "Anna Petrova", boris: "Boris Ivanov" };

/** A fresh customer on the server at `baseURL`, shaped like the demo customer `like`. */
export async function newCustomer(
  baseURL: string,
  like: DemoCustomer,
  /** The store's id for the customer, for a chat embedded on a store (tests/e2e/embed.spec.ts). */
  { storeCustomerId }: { storeCustomerId?: string } = {},
): Promise<Customer> {
  connectTo(baseURL);
  const email = `${like}-${randomUUID().slice(0, 8)}@e2e.example.com`;
  const { orderIds } = await seedDemoLikeUser({ like, email, storeCustomerId });
  return {
    like,
    name: NAMES[like],
    email,
    password: DEMO_PASSWORD,
    order(demoId) {
      const id = orderIds[demoId];
      if (!id) throw new Error(`${like} has no demo order ${demoId}`);
      return id;
    },
  };
}

/**
 * Chat turns written into the database of the server at `baseURL` as the chat stores them, at
 * the times in the rows (db/seed.ts `seedTurns`): for pages that read earlier hours' turns.
 */
export async function seedTurns(baseURL: string, rows: Parameters<typeof seedTurnRows>[0]) {
  connectTo(baseURL);
  await seedTurnRows(rows);
}

/**
 * The worker's one connection follows the server it seeds for (db/index.ts reopens when the
 * configured database changes).
 */
function connectTo(baseURL: string) {
  const target = databaseOf(baseURL);
  const key = /^postgres(ql)?:\/\//.test(target) ? "DATABASE_URL" : "DATABASE_PATH";
  if (process.env[key] !== target) {
    process.env[key] = target;
    resetEnv();
  }
}

export const test = base.extend<{ anna: Customer; boris: Customer }>({
  anna: async ({ baseURL }, use) => {
    await use(await newCustomer(baseURL!, "anna"));
  },
  boris: async ({ baseURL }, use) => {
    await use(await newCustomer(baseURL!, "boris"));
  },
});

export { expect };
