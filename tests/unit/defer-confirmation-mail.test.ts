/**
 * The confirm's mail of a write at the connected store rides on the store's effect (sent once the
 * store applied it); every other write's mail is stored by the confirm itself. The relay's side
 * (the follow-up stored with `succeeded`, none when the store refused) is tested against the real
 * Medusa server in tests/store/medusa.test.ts and medusa-writes.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  deferConfirmationMail,
  EFFECT_PAYLOADS,
  type EffectRequest,
  isStoreWrite,
  STORE_WRITE_KINDS,
} from "@/lib/effects/kinds";

const mail = (kind: "mail.cancellation_confirmed" | "mail.return_confirmed") =>
  ({
    kind,
    payload: {
      to: "anna@example.com",
      locale: "ru",
      orderId: "1005",
      reference: "CN-ABC",
      amount: 12_900,
      currency: "EUR",
    },
  }) as EffectRequest;

const atStore: EffectRequest = {
  kind: "store.cancel_order",
  payload: {
    backend: "medusa",
    storeOrderRef: "order_01",
    orderId: "1005",
    expectedUpdatedAt: "2026-12-04T10:00:00.000Z",
  },
};
const refund = { kind: "payment.refund", payload: { amount: 12_900 } } as unknown as EffectRequest;

describe("deferConfirmationMail", () => {
  it("puts the mail into the store write's payload, which the outbox's schema accepts", () => {
    const out = deferConfirmationMail([atStore], [mail("mail.cancellation_confirmed")]);
    expect(out).toHaveLength(1);
    expect(out[0]!.kind).toBe("store.cancel_order");
    const payload = EFFECT_PAYLOADS["store.cancel_order"].parse(out[0]!.payload);
    expect(payload.confirmationMail).toEqual(mail("mail.cancellation_confirmed"));
    expect(payload.expectedUpdatedAt).toBe("2026-12-04T10:00:00.000Z");
    // The caller's request is not changed in place.
    expect("confirmationMail" in atStore.payload).toBe(false);
  });

  it("leaves a write without a store effect to mail at the confirm", () => {
    expect(deferConfirmationMail([refund], [mail("mail.cancellation_confirmed")])).toEqual([
      refund,
      mail("mail.cancellation_confirmed"),
    ]);
    expect(deferConfirmationMail([], [mail("mail.return_confirmed")])).toEqual([
      mail("mail.return_confirmed"),
    ]);
  });

  it("changes nothing when there is no mail (an address change, a customer without one)", () => {
    expect(deferConfirmationMail([atStore], [])).toEqual([atStore]);
  });

  it("knows the three store writes and nothing else", () => {
    for (const k of STORE_WRITE_KINDS) expect(isStoreWrite(k)).toBe(true);
    for (const k of ["store.receive_return", "payment.refund", "mail.return_confirmed", ""])
      expect(isStoreWrite(k)).toBe(false);
  });

  it("defers only the confirmation mail: any other mail is still stored by the confirm", () => {
    const other = {
      ...mail("mail.return_confirmed"),
      kind: "mail.refund_succeeded",
    } as EffectRequest;
    for (const confirmation of [
      mail("mail.return_confirmed"),
      mail("mail.cancellation_confirmed"),
    ]) {
      const out = deferConfirmationMail([atStore, refund], [other, confirmation]);
      expect(out.map((e) => e.kind)).toEqual([
        "store.cancel_order",
        "payment.refund",
        "mail.refund_succeeded",
      ]);
      const payload = EFFECT_PAYLOADS["store.cancel_order"].parse(out[0]!.payload);
      expect(payload.confirmationMail).toEqual(confirmation);
      expect(out[2]).toEqual(other);
    }
    // No confirmation mail among them: nothing rides on the store's effect.
    expect(deferConfirmationMail([atStore], [other])).toEqual([atStore, other]);
  });
});
