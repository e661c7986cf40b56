/**
 * Which mail a customer gets, to which address, in which language and about what, decided when
 * the effect is stored (lib/effects/mail/compose.ts): the confirm's mail and the mail after a
 * refund, for each kind of effect that refunds (ours at the payment provider, the store's return
 * and the store's cancel), the customer found by the refund's record or else the chat action's,
 * and the language read from the confirming chat's latest customer message whatever its parts.
 * Real database (SQLite); nothing is sent here (the relay does that, mail-and-receive.test.ts).
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionRow } from "@/db/queries/actions";
import type { EffectRow } from "@/db/queries/effects";
import { messages, storeOperations, user } from "@/db/schema";
import { mailAfterConfirm, mailAfterRefund } from "@/lib/effects/mail/compose";
import {
  actionRow,
  type Core,
  insertDeliveredOrder,
  newChat,
  proposeWith,
  setupCore,
} from "./action-core/fixtures";

let core: Core;
/** A Russian-speaking account (its own choice of language is Russian). */
let mira: string;
/** An account whose address is not one a mail can go to. */
let broken: string;
/** A chat action of Anna's, from a chat whose customer wrote in Russian. */
let annaAction: ActionRow;
let nextOrder = 8400;

async function newUser(email: string, locale: "en" | "ru" | null): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await core.db
    .insert(user)
    .values({ id, name: email, email, locale, createdAt: now, updatedAt: now });
  return id;
}

/** A chat of this customer whose latest customer message has these parts. */
async function chatWith(userId: string, parts: unknown[]): Promise<string> {
  const chatId = await newChat(core.db, userId);
  await core.db.insert(messages).values({
    id: `m_${chatId}`,
    chatId,
    seq: 1,
    role: "user",
    parts: parts as never,
    createdAt: new Date(),
  });
  return chatId;
}

function effectOf(kind: string, actionId: string, payload: unknown): EffectRow {
  const now = new Date();
  return {
    id: randomUUID(),
    actionId,
    kind,
    idempotencyKey: `rd-${actionId}-${kind}`,
    payload,
    status: "succeeded",
    attempts: 1,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseUntil: null,
    lastErrorCode: null,
    providerRef: null,
    createdAt: now,
    updatedAt: now,
    settledAt: now,
    resolutionNote: null,
    resolvedBy: null,
    retriedAt: null,
  } as EffectRow;
}

/** A return or cancellation at the connected store, of this customer, under this operation id. */
async function storeOperation(
  kind: "cancel" | "return",
  userId: string,
  operationId: string,
  refundAmountMinor: number,
): Promise<string> {
  const id = `${kind === "cancel" ? "CN" : "RR"}-S${nextOrder++}`;
  await core.db.insert(storeOperations).values({
    id,
    businessKey: `medusa:order_${id}:${kind}`,
    backend: "medusa",
    kind,
    storeOrderRef: `order_${id}`,
    orderId: `10${nextOrder}`,
    userId,
    reason: kind === "cancel" ? "changed_mind" : "damaged",
    comment: null,
    refundAmountMinor,
    refundCurrency: "USD",
    refundDestination: "Visa •••• 4242",
    operationId,
    createdAt: new Date(),
  } as never);
  return id;
}

const REFUND = (orderId: string) => ({
  orderId,
  paymentRef: "pi_test1",
  amount: 2599,
  currency: "EUR",
});

beforeAll(async () => {
  core = await setupCore();
  mira = await newUser("mira@example.com", "ru");
  broken = await newUser("not-an-address", "en");
  const orderId = await insertDeliveredOrder(core.db, {
    id: String(nextOrder++),
    userId: core.anna,
    total: 1500,
  });
  const chatId = await chatWith(core.anna, [{ type: "text", text: "Хочу вернуть заказ" }]);
  const proposed = await proposeWith("create_return_request", core.anna, chatId, {
    orderId,
    reason: "damaged",
    comment: null,
  });
  annaAction = await actionRow(core.db, proposed.id);
});

const CONFIRMED = {
  orderId: "7718",
  createdNow: true,
  requestId: "RR-0042",
  refund: { amount: 3900, currency: "EUR" },
};

describe("the confirm's mail", () => {
  it("names the customer's address, the chat's language and the write's facts", async () => {
    const chatId = await chatWith(mira, [{ type: "text", text: "I want to return it" }]);
    expect(
      await mailAfterConfirm({
        kind: "mail.return_confirmed",
        userId: mira,
        chatId,
        result: CONFIRMED,
      }),
    ).toEqual([
      {
        kind: "mail.return_confirmed",
        payload: {
          to: "mira@example.com",
          locale: "en",
          orderId: "7718",
          reference: "RR-0042",
          amount: 3900,
          currency: "EUR",
        },
      },
    ]);
  });

  it("no mail when the tool names none, the result is not a write's, or the write already existed", async () => {
    const base = { userId: mira, chatId: null };
    expect(await mailAfterConfirm({ ...base, kind: undefined, result: CONFIRMED })).toEqual([]);
    expect(
      await mailAfterConfirm({ ...base, kind: "mail.return_confirmed", result: { ok: true } }),
    ).toEqual([]);
    expect(
      await mailAfterConfirm({
        ...base,
        kind: "mail.return_confirmed",
        result: { ...CONFIRMED, createdNow: false },
      }),
    ).toEqual([]);
  });

  it("no mail for an account that is gone or whose address cannot take mail", async () => {
    for (const userId of ["no-such-user", broken]) {
      expect(
        await mailAfterConfirm({
          kind: "mail.cancellation_confirmed",
          userId,
          chatId: null,
          result: CONFIRMED,
        }),
      ).toEqual([]);
    }
  });
});

describe("the mail's language", () => {
  const localeFor = async (userId: string, chatId: string | null) => {
    const [mail] = await mailAfterConfirm({
      kind: "mail.return_confirmed",
      userId,
      chatId,
      result: CONFIRMED,
    });
    return (mail?.payload as { locale: string } | undefined)?.locale;
  };

  it("is the account's when there is no chat, or its latest message has no text", async () => {
    expect(await localeFor(mira, null)).toBe("ru");
    expect(await localeFor(mira, await newChat(core.db, mira))).toBe("ru");
    expect(await localeFor(core.anna, null)).toBe("en");
  });

  it("reads only the text parts, whatever else a message holds", async () => {
    // Not text: a null, a bare string, a tool's part, and a part whose "text" is no string.
    const odd = [
      null,
      "Хочу вернуть заказ",
      { type: "tool-lookup_order", input: { text: "Хочу" } },
      { type: "data-note", text: ["Хочу вернуть заказ"] },
    ];
    // Anna chose no language: none of these is read, so English.
    expect(await localeFor(core.anna, await chatWith(core.anna, odd))).toBe("en");
    // Mira chose Russian: the English text part decides over her choice.
    expect(
      await localeFor(mira, await chatWith(mira, [...odd, { type: "text", text: "Where is it" }])),
    ).toBe("en");
    // Only non-text parts: her own choice stands.
    expect(await localeFor(mira, await chatWith(mira, odd))).toBe("ru");
  });

  it("reads the text parts as one text, word by word", async () => {
    // Russian typed in Latin letters, one word a part: read as words, it is Russian.
    const parts = ["gde", "moy", "zakaz"].map((text) => ({ type: "text", text }));
    expect(await localeFor(core.anna, await chatWith(core.anna, parts))).toBe("ru");
  });
});

describe("the mail after a refund", () => {
  it("of our refund: to the return's customer, with the return's number", async () => {
    const refunds = await mailAfterRefund({
      effect: effectOf("payment.refund", annaAction.id, REFUND("7001")),
      action: annaAction,
      outcome: "succeeded",
    });
    expect(refunds).toEqual([
      {
        kind: "mail.refund_succeeded",
        payload: {
          to: "anna@example.com",
          // The confirming chat was in Russian.
          locale: "ru",
          orderId: "7001",
          reference: "7001",
          amount: 2599,
          currency: "EUR",
        },
      },
    ]);
    const failed = await mailAfterRefund({
      effect: effectOf("payment.refund", annaAction.id, REFUND("7001")),
      action: annaAction,
      outcome: "failed",
    });
    expect(failed.map((m) => m.kind)).toEqual(["mail.refund_failed"]);
  });

  it("the refund's record names the customer, over the action's, and its reference", async () => {
    const operationId = `op-${randomUUID()}`;
    const returnId = await storeOperation("return", mira, operationId, 1200);
    const [mail] = await mailAfterRefund({
      effect: effectOf("payment.refund", operationId, REFUND("7002")),
      action: annaAction,
      outcome: "succeeded",
    });
    expect(mail?.payload).toMatchObject({
      to: "mira@example.com",
      reference: returnId,
      // The language is still the confirming chat's.
      locale: "ru",
    });
  });

  it("with no chat action, the record's customer in the account's language", async () => {
    const operationId = `op-${randomUUID()}`;
    const returnId = await storeOperation("return", mira, operationId, 1200);
    const [mail] = await mailAfterRefund({
      effect: effectOf("store.receive_return", operationId, {
        backend: "medusa",
        storeOrderRef: "order_01",
        orderId: "1044",
        returnId,
        amount: 1200,
        currency: "USD",
      }),
      action: null,
      outcome: "succeeded",
    });
    expect(mail).toEqual({
      kind: "mail.refund_succeeded",
      payload: {
        to: "mira@example.com",
        locale: "ru",
        orderId: "1044",
        reference: returnId,
        amount: 1200,
        currency: "USD",
      },
    });
  });

  it("the store's cancel refunds what the plan showed; nothing when it refunded nothing", async () => {
    const operationId = `op-${randomUUID()}`;
    const cancelId = await storeOperation("cancel", mira, operationId, 4550);
    const [mail] = await mailAfterRefund({
      effect: effectOf("store.cancel_order", operationId, {}),
      action: null,
      outcome: "failed",
    });
    expect(mail?.kind).toBe("mail.refund_failed");
    expect(mail?.payload).toMatchObject({ reference: cancelId, amount: 4550, currency: "USD" });
    expect((mail?.payload as { orderId: string } | undefined)?.orderId).toMatch(/^10\d+$/);

    for (const amount of [0, 1]) {
      const op = `op-${randomUUID()}`;
      await storeOperation("cancel", mira, op, amount);
      const mails = await mailAfterRefund({
        effect: effectOf("store.cancel_order", op, {}),
        action: null,
        outcome: "succeeded",
      });
      expect(mails.map((m) => (m.payload as { amount: number }).amount)).toEqual(
        amount > 0 ? [amount] : [],
      );
    }
    // No store operation under that id: nothing to tell.
    expect(
      await mailAfterRefund({
        effect: effectOf("store.cancel_order", `op-${randomUUID()}`, {}),
        action: annaAction,
        outcome: "succeeded",
      }),
    ).toEqual([]);
  });

  it("no mail for an effect that refunds nothing, a payload it cannot read, or no customer", async () => {
    const cases: [EffectRow, ActionRow | null][] = [
      [effectOf("mail.return_confirmed", annaAction.id, {}), annaAction],
      [effectOf("warehouse.notify", annaAction.id, REFUND("7003")), annaAction],
      [effectOf("payment.refund", annaAction.id, { orderId: "7003" }), annaAction],
      [effectOf("store.receive_return", annaAction.id, REFUND("7003")), annaAction],
      // A refund with neither a record nor a chat action: no one to tell.
      [effectOf("payment.refund", `op-${randomUUID()}`, REFUND("7004")), null],
      // The action's account is gone.
      [
        effectOf("payment.refund", `op-${randomUUID()}`, REFUND("7005")),
        { ...annaAction, userId: "no-such-user" },
      ],
    ];
    for (const [effect, action] of cases) {
      expect(await mailAfterRefund({ effect, action, outcome: "succeeded" })).toEqual([]);
    }
  });
});
