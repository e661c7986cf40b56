/**
 * A shopper without an account verifies one order by its number and e-mail, with a one-time code
 * mailed to that address, outside the model and the chat text (a code typed into the chat would
 * pass through the model and stay in the transcript).
 *
 * The rules (OWASP ASVS 5.0, V6): 6 digits from crypto.randomInt (about 20 bits); only their
 * keyed hash is stored, bound to this guest session, this order and this row; valid 10 minutes;
 * used once; the third wrong try kills it; at most 3 codes per order an hour, and limits per
 * session and per client address (an IPv6 client by its /64). The request answers the same
 * whether or not the order and the e-mail match, after the same work: a code is drawn, hashed and
 * stored either way (unmatched, it can never be confirmed), and the mail is handed to the mail
 * transport without being awaited, so the answer does not wait on mail.
 */
import "server-only";
import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import {
  insertGuestVerification,
  latestGuestVerification,
  markGuestVerified,
  renameGuest,
  spendGuestAttempt,
} from "@/db/queries/guests";
import { recordAudit } from "../audit-log/record";
import { normalizeEmail } from "../auth/account-throttle";
import { authSecret } from "../auth/secret";
import type { CurrentUser } from "../auth/session";
import { renderGuestCodeMail } from "../effects/mail/render";
import { mailTransport } from "../effects/mail/transport";
import { AppError } from "../errors";
import { addressBucket } from "../http/client-address";
import { rateLimit } from "../http/rate-limit";
import { errorFields, log } from "../log";
import { orderPlacedWith } from "../store";
import { maskEmail } from "./mask";

export const GUEST_AUDIT_TOOL = "guest:verification";

export const CODE_MINUTES = 10;
/** How long a verification lets the guest act on its order. */
export const VERIFIED_MINUTES = 30;
export const CODES_PER_ORDER_PER_HOUR = 3;
/**
 * Codes one guest session may ask for in an hour, whatever the orders: enough for a shopper with
 * two orders and a typo, far too few to probe which order numbers exist.
 */
export const CODES_PER_SESSION_PER_HOUR = 5;
/** The same per client address (a household, an office behind one address: a little more). */
export const CODES_PER_ADDRESS_PER_HOUR = 10;
/** Confirm tries per session in 10 minutes: asking for new codes gives no extra guesses. */
export const CONFIRMS_PER_SESSION = 10;

const HOUR = 3_600_000;

/** A guest may verify orders; a signed-in customer (or staff) needs no code for their own. */
function requireGuest(user: CurrentUser): void {
  if (!user.guest)
    throw new AppError("forbidden", "Only a visitor without an account verifies orders by code.");
}

/** The code's keyed hash, bound to its row, its session and its order. */
function codeHash(row: { id: string; userId: string; orderId: string }, code: string): string {
  return createHmac("sha256", authSecret())
    .update(`guest-code\0${row.id}\0${row.userId}\0${row.orderId}\0${code}`)
    .digest("hex");
}

export type GuestCodeRequest = {
  user: CurrentUser;
  orderId: string;
  email: string;
  locale: "en" | "ru";
  ipAddress: string | null;
  now?: Date;
};

/**
 * Draws, stores and (when the order was placed with this e-mail) mails a code. Answers nothing
 * about the match: the caller says "if this order was placed with this e-mail, we have sent a
 * code to it" either way. Throws only `rate_limited` (and `forbidden` for a non-guest).
 */
export async function requestGuestCode(input: GuestCodeRequest): Promise<void> {
  requireGuest(input.user);
  const now = input.now ?? new Date();
  const email = normalizeEmail(input.email);
  const orderId = input.orderId.trim();
  const at = { now: now.getTime(), windowMs: HOUR, what: "verification codes" };
  await rateLimit(`guest-code-session:${input.user.id}`, CODES_PER_SESSION_PER_HOUR, at);
  await rateLimit(
    `guest-code-address:${addressBucket(input.ipAddress)}`,
    CODES_PER_ADDRESS_PER_HOUR,
    at,
  );
  await rateLimit(`guest-code-order:${orderId}`, CODES_PER_ORDER_PER_HOUR, at);
  const matched = await orderPlacedWith(orderId, email);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const row = { id: `gv_${randomUUID()}`, userId: input.user.id, orderId };
  await insertGuestVerification({
    ...row,
    email,
    codeHash: codeHash(row, code),
    matched,
    attempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000),
  });
  // The mail is rendered on both paths; only a match sends it, and nobody waits for the send.
  const mail = renderGuestCodeMail({ locale: input.locale, orderId, code, minutes: CODE_MINUTES });
  if (matched) void sendCode(mail, email, row.id);
  else void mail.catch(() => undefined);
  await recordAudit({
    tool: GUEST_AUDIT_TOOL,
    status: "success",
    userId: input.user.id,
    at: now,
    // The e-mail masked: the audit keeps who was asked for, not a readable address.
    arguments: { orderId, email: maskEmail(email) },
    result: { step: "code_requested" },
  });
}

async function sendCode(
  mail: ReturnType<typeof renderGuestCodeMail>,
  to: string,
  id: string,
): Promise<void> {
  try {
    const outcome = await mailTransport().send({
      ...(await mail),
      to,
      key: `rd-${id}-mail.guest_code`,
    });
    if (outcome.kind !== "succeeded")
      log().warn({ verification: id, code: outcome.code }, "guest code mail not sent");
  } catch (err) {
    log().warn({ verification: id, err: errorFields(err) }, "guest code mail not sent");
  }
}

export type GuestCodeConfirm = {
  user: CurrentUser;
  orderId: string;
  code: string;
  ipAddress: string | null;
  now?: Date;
};

/**
 * Checks a code against this session's newest code for this order. 200 opens the order for 30
 * minutes; 401 `code_invalid` for a wrong code (or no code of this session for this order);
 * 410 `code_expired` for a code past its time, used, or killed by its third wrong try.
 */
export async function confirmGuestCode(
  input: GuestCodeConfirm,
): Promise<{ orderId: string; until: Date }> {
  requireGuest(input.user);
  const now = input.now ?? new Date();
  const orderId = input.orderId.trim();
  await rateLimit(`guest-confirm-session:${input.user.id}`, CONFIRMS_PER_SESSION, {
    now: now.getTime(),
    windowMs: CODE_MINUTES * 60_000,
    what: "code attempts",
  });
  await rateLimit(
    `guest-confirm-address:${addressBucket(input.ipAddress)}`,
    CONFIRMS_PER_SESSION * 3,
    {
      now: now.getTime(),
      windowMs: CODE_MINUTES * 60_000,
      what: "code attempts",
    },
  );
  const refuse = async (code: "code_invalid" | "code_expired") => {
    await recordAudit({
      tool: GUEST_AUDIT_TOOL,
      status: "rejected",
      errorCode: code,
      userId: input.user.id,
      at: now,
      arguments: { orderId },
      result: { step: "code_refused", code },
    });
    return code === "code_invalid"
      ? new AppError("code_invalid", "That code is not right. Check the e-mail and try again.")
      : new AppError("code_expired", "That code can no longer be used. Ask for a new one.");
  };
  const latest = await latestGuestVerification({ userId: input.user.id, orderId });
  if (!latest) throw await refuse("code_invalid");
  if (latest.usedAt || latest.expiresAt.getTime() <= now.getTime())
    throw await refuse("code_expired");
  const spent = await spendGuestAttempt({ id: latest.id, now });
  if (!spent) throw await refuse("code_expired");
  const expected = Buffer.from(latest.codeHash, "hex");
  const given = Buffer.from(codeHash(latest, input.code.trim()), "hex");
  const right =
    latest.matched && expected.length === given.length && timingSafeEqual(expected, given);
  if (!right) throw await refuse("code_invalid");
  const until = new Date(now.getTime() + VERIFIED_MINUTES * 60_000);
  // Once: a parallel confirm of the same code finds it used.
  if (!(await markGuestVerified({ id: latest.id, now, until }))) throw await refuse("code_expired");
  const actor = verifiedGuestName(orderId, latest.email);
  await renameGuest({ userId: input.user.id, name: actor, now });
  await recordAudit({
    tool: GUEST_AUDIT_TOOL,
    status: "success",
    userId: input.user.id,
    at: now,
    arguments: { orderId, email: maskEmail(latest.email) },
    result: { step: "verified", actor: "verified_guest", orderId, until: until.toISOString() },
  });
  return { orderId, until };
}

/**
 * How staff read a verified guest wherever the account's name shows (audit, transcripts): the
 * order it verified and the masked e-mail, never the address itself.
 */
export function verifiedGuestName(orderId: string, email: string): string {
  return `Verified guest (order ${orderId}, ${maskEmail(email)})`;
}
