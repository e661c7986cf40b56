/**
 * Seeding: the demo store (when the database is empty) and a large generated store for
 * benchmarks. Plain drizzle inserts in one transaction each; passwords hashed with
 * better-auth's own hasher so sign-in verifies them.
 */
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { count } from "drizzle-orm";
import { GUEST_CHECKOUT_EMAIL, GUEST_CHECKOUT_USER_ID } from "./constants";
import { first, getDb } from "./index";
import {
  account,
  modelCalls,
  orderCancellations,
  orderItems,
  orders,
  products,
  productVariants,
  user,
} from "./schema";
import {
  DEMO_ADDRESSES,
  DEMO_ORDERS,
  DEMO_PASSWORD,
  DEMO_PRODUCTS,
  DEMO_USERS,
  type DemoOrder,
  GUEST_SHOPPER,
} from "./seed-data";
import { writeTransaction } from "./transaction";

const DAY = 86_400_000;

export async function isEmpty(): Promise<boolean> {
  const row = await getDb().select({ n: count() }).from(user).then(first);
  return (row?.n ?? 0) === 0;
}

function userRows(
  u: {
    id: string;
    name: string;
    email: string;
    role: "customer" | "staff";
    storeCustomerId?: string | null;
  },
  hash: string,
  now: Date,
) {
  return {
    user: { ...u, emailVerified: true, createdAt: now, updatedAt: now },
    account: {
      id: randomUUID(),
      accountId: u.id,
      providerId: "credential",
      userId: u.id,
      password: hash,
      createdAt: now,
      updatedAt: now,
    },
  };
}

/**
 * The demo store's charge of an order: a PaymentIntent id in Stripe's shape, one per order, so a
 * cancellation's refund has something to refer to (at a Stripe-compatible server, tests create
 * the intents they refund).
 */
export const demoPaymentRef = (orderId: string) => `pi_demo${orderId}`;

/** The owner's demo address as the orders table's columns (none for an owner without one). */
function deliveryColumns(owner: string) {
  const a = Object.hasOwn(DEMO_ADDRESSES, owner) ? DEMO_ADDRESSES[owner] : undefined;
  return {
    deliveryName: a?.name ?? null,
    deliveryLine1: a?.line1 ?? null,
    deliveryLine2: a?.line2 ?? null,
    deliveryPostalCode: a?.postalCode ?? null,
    deliveryCity: a?.city ?? null,
    deliveryCountry: a?.country ?? null,
  };
}

function orderRow(o: DemoOrder, userId: string, now: number) {
  const daysAgo = (d?: number) => (d === undefined ? null : new Date(now - d * DAY));
  const total = o.items.reduce((s, i) => s + i.quantity * i.unitPriceMinor, 0);
  return {
    id: o.id,
    userId,
    email: o.email ?? null,
    status: o.status,
    placedAt: new Date(now - o.placedDaysAgo * DAY),
    shippedAt: daysAgo(o.shippedDaysAgo),
    deliveredAt: daysAgo(o.deliveredDaysAgo),
    etaAt: o.etaInDays === undefined ? null : new Date(now + o.etaInDays * DAY),
    totalMinor: total,
    currency: o.currency,
    paymentMethod: o.paymentMethod,
    paymentRef: demoPaymentRef(o.id),
    deliveryNote: o.deliveryNote ?? null,
    ...deliveryColumns(o.owner),
    version: 1,
    updatedAt: new Date(now),
  };
}

function itemRow(orderId: string, { variant, ...item }: DemoOrder["items"][number]) {
  return { orderId, ...item, variantId: variant ?? null };
}

/** The demo password's hash, computed once per process (scrypt is deliberately slow). */
let demoHash: Promise<string> | undefined;
const demoPasswordHash = () => {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  return demoHash;
};

/** The owner of orders placed without an account (GUEST_CHECKOUT_USER_ID): no password, no session. */
async function insertGuestCheckout(now: Date): Promise<void> {
  await getDb().insert(user).values({
    id: GUEST_CHECKOUT_USER_ID,
    name: "Checkout without an account",
    email: GUEST_CHECKOUT_EMAIL,
    emailVerified: false,
    role: "customer",
    createdAt: now,
    updatedAt: now,
  });
}

/** Seeds the demo store of docs/domain.md. Returns false (and writes nothing) if users exist. */
export async function seedDemo(now = new Date()): Promise<boolean> {
  if (!(await isEmpty())) return false;
  const hash = await demoPasswordHash();
  const ids = new Map<string, string>(DEMO_USERS.map((u) => [u.key, randomUUID()]));
  return writeTransaction(async () => {
    // A concurrent starter may have seeded between our check and this transaction.
    if (!(await isEmpty())) return false;
    const tx = getDb();
    for (const u of DEMO_USERS) {
      const rows = userRows(
        {
          id: ids.get(u.key)!,
          name: u.name,
          email: u.email,
          role: u.role,
          storeCustomerId: u.storeCustomerId ?? null,
        },
        hash,
        now,
      );
      await tx.insert(user).values(rows.user);
      await tx.insert(account).values(rows.account);
    }
    await insertDemoCatalogue();
    await insertGuestCheckout(now);
    ids.set(GUEST_SHOPPER, GUEST_CHECKOUT_USER_ID);
    for (const o of DEMO_ORDERS) {
      await tx.insert(orders).values(orderRow(o, ids.get(o.owner)!, now.getTime()));
      for (const item of o.items) await tx.insert(orderItems).values(itemRow(o.id, item));
      // A cancelled demo order has its cancellation on record, as if the customer had made it.
      if (o.status === "cancelled") {
        const row = orderRow(o, ids.get(o.owner)!, now.getTime());
        await tx.insert(orderCancellations).values({
          id: `CN-SEED${o.id}`,
          orderId: o.id,
          userId: row.userId,
          reason: "changed_mind",
          comment: null,
          refundAmountMinor: row.totalMinor,
          refundCurrency: row.currency,
          refundDestination: row.paymentMethod,
          actionId: null,
          operationId: `seed-${o.id}`,
          createdAt: new Date(now.getTime() - (o.placedDaysAgo - 1) * 86_400_000),
        });
      }
    }
    return true;
  });
}

/**
 * The demo store's products and variants, each only if it is not there yet: the demo seed makes
 * them, and a customer copied from a demo customer (seedDemoLikeUser) needs them for the order
 * lines that point at a variant, also in a database that was never demo-seeded. Call inside a
 * write transaction.
 */
async function insertDemoCatalogue(): Promise<void> {
  const tx = getDb();
  for (const p of DEMO_PRODUCTS) {
    await tx
      .insert(products)
      .values({ id: p.id, name: p.name, options: p.options, finalSale: p.finalSale ?? false })
      .onConflictDoNothing();
    for (const [position, v] of p.variants.entries()) {
      await tx
        .insert(productVariants)
        .values({
          id: v.id,
          productId: p.id,
          options: v.options,
          position,
          priceMinor: v.priceMinor,
          currency: "EUR",
          stock: v.stock,
        })
        .onConflictDoNothing();
    }
  }
}

/** A random four-digit order id that no order has yet (the tools accept `^\d{4}$`). */
function freeOrderId(taken: Set<string>): string {
  if (taken.size >= 9000) throw new Error("no four-digit order id left");
  for (;;) {
    const id = String(1000 + Math.floor(Math.random() * 9000));
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * One more user shaped like a demo user (`like`: "anna", "boris", "staff"): same name and role,
 * the demo password, the given email, and copies of that user's demo orders under new, unused
 * four-digit ids. The e2e suite gives every test its own customer this way
 * (tests/e2e/fixtures.ts), so no two tests share an order, a chat or a pending action. Runs as
 * an IMMEDIATE transaction: picking the free ids and inserting them cannot interleave with
 * another process doing the same on this file.
 */
export async function seedDemoLikeUser({
  like,
  email,
  storeCustomerId = null,
  now = new Date(),
}: {
  like: string;
  email: string;
  /** The store's id for this customer (embedded chat tests sign tokens for it). */
  storeCustomerId?: string | null;
  now?: Date;
}): Promise<{ userId: string; orderIds: Record<string, string> }> {
  const model = DEMO_USERS.find((u) => u.key === like);
  if (!model) throw new Error(`no demo user "${like}"`);
  const hash = await demoPasswordHash();
  const userId = randomUUID();
  const orderIds: Record<string, string> = {};
  await writeTransaction(async () => {
    const tx = getDb();
    const rows = userRows(
      { id: userId, name: model.name, email, role: model.role, storeCustomerId },
      hash,
      now,
    );
    await tx.insert(user).values(rows.user);
    await tx.insert(account).values(rows.account);
    await insertDemoCatalogue();
    const taken = new Set((await tx.select({ id: orders.id }).from(orders)).map((r) => r.id));
    for (const o of DEMO_ORDERS.filter((d) => d.owner === like)) {
      const id = freeOrderId(taken);
      orderIds[o.id] = id;
      await tx.insert(orders).values(orderRow({ ...o, id }, userId, now.getTime()));
      for (const item of o.items) await tx.insert(orderItems).values(itemRow(id, item));
    }
  });
  return { userId, orderIds };
}

/**
 * Chat turns as the chat stores them (model_calls rows), at the times given. The drift charts of
 * /audit/metrics draw closed windows only (an hour long by default), and the turns of a test run
 * all fall in the window still open; the e2e suite gives the charts earlier windows this way
 * (tests/e2e/fixtures.ts `seedTurns`).
 */
export async function seedTurns(rows: (typeof modelCalls.$inferInsert)[]): Promise<void> {
  await writeTransaction(async () => {
    await getDb().insert(modelCalls).values(rows);
  });
}

const PRODUCTS = [
  ["Kettle", 3990],
  ["Desk lamp", 2490],
  ["Backpack", 6900],
  ["Running shoes", 8990],
  ["Blender", 5490],
  ["Throw pillow", 1990],
  ["Phone case", 1490],
  ["Water bottle", 1290],
] as const;
const STATUSES = [
  "processing",
  "shipped",
  "in_transit",
  "delivered",
  "delivered",
  "cancelled",
] as const;

/**
 * A large generated store for benchmarks. Order ids stay four digits while they last (the tools
 * accept `^\d{4}$`), so the first customers are fully usable in the chat; the rest get five-digit
 * ids, reachable from the orders page and the audit but not by the chat tools.
 */
export async function seedLarge({
  customers = 5000,
  ordersCount = 20000,
  now = new Date(),
} = {}): Promise<{ customers: number; orders: number }> {
  const hash = await demoPasswordHash();
  const t = now.getTime();
  const at = new Date(t);
  const taken = new Set((await getDb().select({ id: orders.id }).from(orders)).map((r) => r.id));
  let next = 1000;
  const nextId = () => {
    while (taken.has(String(next))) next++;
    taken.add(String(next));
    return String(next++);
  };
  const userIds = Array.from({ length: customers }, (_, c) => `bench-user-${c}`);
  const orderRows: (typeof orders.$inferInsert)[] = [];
  const itemRows: (typeof orderItems.$inferInsert)[] = [];
  for (let i = 0; i < ordersCount; i++) {
    const owner = userIds[i % customers]!;
    const status = STATUSES[i % STATUSES.length]!;
    const [name, price] = PRODUCTS[i % PRODUCTS.length]!;
    const age = 1 + (i % 40);
    const day = (ms: number | null) => (ms === null ? null : new Date(ms));
    const id = next <= 9999 ? nextId() : String(10000 + i);
    orderRows.push({
      id,
      userId: owner,
      status,
      placedAt: new Date(t - age * DAY),
      shippedAt: day(
        status === "processing" || status === "cancelled" ? null : t - (age - 1) * DAY,
      ),
      deliveredAt: day(status === "delivered" ? t - Math.max(0, age - 3) * DAY : null),
      etaAt: day(status === "shipped" || status === "in_transit" ? t + 2 * DAY : null),
      totalMinor: price,
      currency: "EUR",
      paymentMethod: "Visa •••• 0000",
      paymentRef: demoPaymentRef(id),
      deliveryNote: null,
      version: 1,
      updatedAt: at,
    });
    itemRows.push({ orderId: id, name, quantity: 1, unitPriceMinor: price });
  }
  // Multi-row inserts in chunks (well under both dialects' limits on bound parameters).
  await writeTransaction(async () => {
    const tx = getDb();
    for (const part of chunks(userIds, 500)) {
      await tx
        .insert(user)
        .values(
          part.map((id) => ({
            id,
            name: `Customer ${id.slice("bench-user-".length)}`,
            email: `customer${id.slice("bench-user-".length)}@bench.example.com`,
            emailVerified: true,
            role: "customer" as const,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .onConflictDoNothing();
      await tx
        .insert(account)
        .values(
          part.map((id) => ({
            id: `bench-acc-${id.slice("bench-user-".length)}`,
            accountId: id,
            providerId: "credential",
            userId: id,
            password: hash,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .onConflictDoNothing();
    }
    for (const part of chunks(orderRows, 500)) await tx.insert(orders).values(part);
    for (const part of chunks(itemRows, 1000)) await tx.insert(orderItems).values(part);
  });
  return { customers, orders: ordersCount };
}

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
