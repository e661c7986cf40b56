/**
 * Shoppers without an account: their one-time codes, the orders those codes open, and the pruning
 * of guest accounts. A code row is also the verified access it grants (`verified_until`).
 */
import "server-only";
import { and, desc, eq, exists, gt, isNotNull, lt, or, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import {
  chats,
  deliveryAddressChanges,
  guestVerifications,
  itemExchanges,
  orderCancellations,
  orders,
  returnRequests,
  session,
  storeOperations,
  user,
} from "../schema";

/** The most wrong codes a code survives: the third wrong one kills it. */
export const GUEST_CODE_ATTEMPTS = 3;

export type GuestVerificationRow = typeof guestVerifications.$inferSelect;

/**
 * Whether an order placed without an account has this number and was placed with this e-mail
 * (both normalised by the caller). One indexed read, whatever the answer: the request for a code
 * does the same work whether or not they match.
 */
export async function guestOrderMatches({
  orderId,
  email,
}: {
  orderId: string;
  email: string;
}): Promise<boolean> {
  const row = await getDb()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.email, email)))
    .then(first);
  return !!row;
}

export async function insertGuestVerification(
  row: typeof guestVerifications.$inferInsert,
): Promise<void> {
  await getDb().insert(guestVerifications).values(row);
}

/** The newest code this guest session asked for this order, used or not. */
export async function latestGuestVerification({
  userId,
  orderId,
}: {
  userId: string;
  orderId: string;
}): Promise<GuestVerificationRow | null> {
  return getDb()
    .select()
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, userId), eq(guestVerifications.orderId, orderId)))
    .orderBy(desc(guestVerifications.createdAt))
    .limit(1)
    .then(first);
}

/**
 * Counts one attempt against a live code, in one statement: only while it is unused, unexpired
 * and under its attempts, so parallel guesses get no more tries than sequential ones. Null when
 * the code could take no further attempt.
 */
export async function spendGuestAttempt({
  id,
  now,
}: {
  id: string;
  now: Date;
}): Promise<GuestVerificationRow | null> {
  return getDb()
    .update(guestVerifications)
    .set({ attempts: sql`${guestVerifications.attempts} + 1` })
    .where(
      and(
        eq(guestVerifications.id, id),
        lt(guestVerifications.attempts, GUEST_CODE_ATTEMPTS),
        sql`${guestVerifications.usedAt} is null`,
        gt(guestVerifications.expiresAt, now),
      ),
    )
    .returning()
    .then(first);
}

/** Uses the code (once: only while unused) and opens its order until `until`. */
export async function markGuestVerified({
  id,
  now,
  until,
}: {
  id: string;
  now: Date;
  until: Date;
}): Promise<GuestVerificationRow | null> {
  return getDb()
    .update(guestVerifications)
    .set({ usedAt: now, verifiedUntil: until })
    .where(and(eq(guestVerifications.id, id), sql`${guestVerifications.usedAt} is null`))
    .returning()
    .then(first);
}

/**
 * The SQL condition "this order is open to this account": its own order, or an order placed
 * without an account that this guest verified, whose e-mail at the store is still the one
 * verified, until the verification's end. Every read and write of the built-in store's orders
 * goes through it, so a changed e-mail or a lapsed verification closes the order at once.
 */
export function orderOpenTo(userId: string, now: Date = new Date()) {
  return or(
    eq(orders.userId, userId),
    and(
      isNotNull(orders.email),
      exists(
        getDb()
          .select({ one: sql`1` })
          .from(guestVerifications)
          .where(
            and(
              eq(guestVerifications.userId, userId),
              eq(guestVerifications.orderId, orders.id),
              eq(guestVerifications.email, orders.email),
              gt(guestVerifications.verifiedUntil, now),
            ),
          ),
      ),
    ),
  );
}

/** The orders this guest may act on now, each with the e-mail it was verified with. */
export async function verifiedGuestOrders({
  userId,
  now,
}: {
  userId: string;
  now: Date;
}): Promise<{ orderId: string; email: string; until: Date }[]> {
  const rows = await getDb()
    .select({
      orderId: guestVerifications.orderId,
      email: guestVerifications.email,
      until: guestVerifications.verifiedUntil,
    })
    .from(guestVerifications)
    .innerJoin(
      orders,
      and(eq(orders.id, guestVerifications.orderId), eq(orders.email, guestVerifications.email)),
    )
    .where(and(eq(guestVerifications.userId, userId), gt(guestVerifications.verifiedUntil, now)));
  return rows.flatMap((r) =>
    r.until ? [{ orderId: r.orderId, email: r.email, until: r.until }] : [],
  );
}

/**
 * This guest's verifications open now, each order with the e-mail it was verified with, without
 * the built-in store's orders: an external store checks the e-mail itself (lib/store/medusa.ts).
 */
export async function openGuestVerifications({
  userId,
  now,
}: {
  userId: string;
  now: Date;
}): Promise<{ orderId: string; email: string }[]> {
  return getDb()
    .select({ orderId: guestVerifications.orderId, email: guestVerifications.email })
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, userId), gt(guestVerifications.verifiedUntil, now)));
}

/** The e-mail this guest verified most recently (where its confirmation mails go), or null. */
export async function latestVerifiedEmail({ userId }: { userId: string }): Promise<string | null> {
  const row = await getDb()
    .select({ email: guestVerifications.email })
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, userId), isNotNull(guestVerifications.verifiedUntil)))
    .orderBy(desc(guestVerifications.verifiedUntil))
    .limit(1)
    .then(first);
  return row?.email ?? null;
}

/** Renames a guest account (what staff read as the actor on its chats and audit events). */
export async function renameGuest({
  userId,
  name,
  now,
}: {
  userId: string;
  name: string;
  now: Date;
}): Promise<void> {
  await getDb()
    .update(user)
    .set({ name, updatedAt: now })
    .where(and(eq(user.id, userId), eq(user.guest, true)));
}

/**
 * Guest accounts idle since before `idleBefore`: no session, chat message or verification after
 * it (their latest session, chat update or account update is older).
 */
export async function idleGuests({
  idleBefore,
}: {
  idleBefore: Date;
}): Promise<{ id: string; name: string }[]> {
  const db = getDb();
  return db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(
      and(
        eq(user.guest, true),
        lt(user.updatedAt, idleBefore),
        sql`not ${exists(
          db
            .select({ one: sql`1` })
            .from(session)
            .where(and(eq(session.userId, user.id), gt(session.updatedAt, idleBefore))),
        )}`,
        sql`not ${exists(
          db
            .select({ one: sql`1` })
            .from(chats)
            .where(and(eq(chats.userId, user.id), gt(chats.updatedAt, idleBefore))),
        )}`,
      ),
    );
}

/**
 * Deletes one guest account with what is only its own: sessions, chats (their messages, pending
 * actions and hand-offs cascade) and verifications. What it wrote at the store stays: its
 * returns, cancellations, exchanges, address changes and store operations pass to `ownerId` (the
 * owner of the orders guests act on, the checkout placeholder), and the audit events keep their
 * rows (they hold no key to the account, and only a masked e-mail). False when it was no guest.
 */
export async function deleteGuest({
  id,
  ownerId,
}: {
  id: string;
  ownerId: string;
}): Promise<boolean> {
  const db = getDb();
  for (const table of [
    returnRequests,
    orderCancellations,
    itemExchanges,
    deliveryAddressChanges,
    storeOperations,
  ]) {
    await db.update(table).set({ userId: ownerId }).where(eq(table.userId, id));
  }
  const gone = await db
    .delete(user)
    .where(and(eq(user.id, id), eq(user.guest, true)))
    .returning({ id: user.id });
  return gone.length === 1;
}
