/**
 * What each write tool's card and chat notes say, word for word, as the app builds them
 * (describeAction): for an order of the connected store (the confirm only queued the write, so
 * nothing may read as done until the store applied it; the store may refuse it because the order
 * changed there, or a merchant cancelled it first), for the built-in store's effects (a refund, the
 * warehouse's webhook) in every phase, and before any result exists (no id to show yet).
 */
import { describe, expect, it } from "vitest";
import type { EffectStatus, NoteKind } from "@/db/constants";
import { describeAction } from "@/lib/actions/describe";
import type { EffectKind } from "@/lib/effects/kinds";
import { ALREADY_CANCELLED_AT_STORE, ORDER_CHANGED_AT_STORE } from "@/lib/store/types";
import { getTool } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";
import type { EffectState, OutcomeNote } from "@/lib/tools/view";
import { SAMPLES } from "./write-tool-samples";

const AT_STORE = {
  backend: "medusa",
  ref: "order_01MEDUSA",
  updatedAt: "2026-05-04T10:00:00.000Z",
};

/** The tool's description of its sample action, at the store or not, with a result or none. */
function described(
  name: string,
  {
    store = false,
    result = "created",
    effects = [],
  }: {
    store?: boolean;
    result?: "created" | "existed" | null;
    effects?: readonly EffectState[];
  } = {},
) {
  const sample = SAMPLES[name]!;
  const plan = store ? { ...(sample.plan as object), store: AT_STORE } : sample.plan;
  const stored =
    result === null ? null : { ...(sample.result as object), createdNow: result === "created" };
  return describeAction(
    getTool(name) as WriteTool,
    { ...sample, plan, result: stored },
    "en",
    effects,
  );
}

const effect = (kind: EffectKind, status: EffectStatus, lastErrorCode: string | null = null) => ({
  kind,
  status,
  lastErrorCode,
});

type NoteRow = [string, EffectState[], OutcomeNote];

describe("cancel_order's card and notes", () => {
  const notesWithId = (executed: string): Record<NoteKind, string> => ({
    executed,
    existed: "Order 3004 was already cancelled (CN-TEST); nothing new was done.",
    cancelled: "You kept order 3004: the cancellation was not made.",
    expired:
      "The offer to cancel order 3004 expired before it was confirmed. The order was not cancelled.",
    stale:
      "Order 3004 changed after the offer was made (it may have shipped), so it was not cancelled. Ask again to see what is possible now.",
    superseded:
      "The offer to cancel order 3004 was replaced by a newer one. Nothing was done with it.",
    failed:
      "Something went wrong while cancelling order 3004. Nothing was changed; please try again.",
  });

  it("the card: its rows, the refund and the warning", () => {
    const d = described("cancel_order", { result: null });
    expect(d.title).toBe("Confirm the cancellation of order 3004");
    expect(d.rows).toEqual([
      { key: "order", label: "Order", value: "3004 · placed May 4, 2026" },
      { key: "items", label: "Items", value: ["1 × Cast iron pan (€45.00 each)"] },
      { key: "reason", label: "Reason", value: "Ordered by mistake" },
      { key: "comment", label: "Comment", value: "None" },
    ]);
    expect(d.amount).toEqual({
      key: "refund",
      label: "Refund",
      value: "€45.00",
      detail: "to Visa •••• 4242",
    });
    expect(d.warning).toBe("A cancelled order cannot be reopened.");
    expect(d.outcome).toBeNull();
  });

  it("every chat note, for the built-in store and for the connected store", () => {
    expect(described("cancel_order").notes).toEqual(
      notesWithId(
        "Order 3004 has been cancelled (cancellation CN-TEST). The card above shows how the refund of €45.00 is going.",
      ),
    );
    expect(described("cancel_order", { store: true }).notes).toEqual(
      notesWithId(
        "The cancellation of order 3004 is on its way to the store (cancellation CN-TEST); the card shows when it is done and €45.00 is refunded.",
      ),
    );
  });

  it("before a result there is no cancellation id to name", () => {
    expect(described("cancel_order", { result: null }).notes.executed).toBe(
      "Order 3004 has been cancelled (cancellation ). The card above shows how the refund of €45.00 is going.",
    );
  });

  const store = (status: EffectStatus, code: string | null = null) => [
    effect("store.cancel_order", status, code),
  ];
  const rows: NoteRow[] = [
    [
      "the store refused it: the order changed there",
      store("failed", ORDER_CHANGED_AT_STORE),
      {
        tone: "warning",
        text: "Order 3004 changed at the store before it could be cancelled, so nothing was cancelled or refunded. It was checked again as it is now: see the next message.",
      },
    ],
    [
      "a merchant cancelled it at the store first",
      store("failed", ALREADY_CANCELLED_AT_STORE),
      {
        tone: "neutral",
        text: "Order 3004 was cancelled at the store itself, not through this request, so nothing more was done here. Any refund comes with the store's own cancellation, not from this request.",
      },
    ],
    ...(["pending", "in_flight"] as const).map(
      (s): NoteRow => [
        `the store is still cancelling it (${s})`,
        store(s),
        {
          tone: "neutral",
          text: "Order 3004: the store is cancelling it now. The refund of €45.00 follows once it has. Cancellation ID: CN-TEST.",
        },
      ],
    ),
    [
      "the store did not accept it",
      store("failed", "store_rejected"),
      {
        tone: "warning",
        text: "The store did not accept the cancellation of order 3004, so we have not refunded anything. Our team will contact you. Cancellation ID: CN-TEST.",
      },
    ],
    [
      "the store's write is delayed",
      store("needs_attention"),
      {
        tone: "warning",
        text: "Cancelling order 3004 at the store is delayed; our team is checking it and will contact you. Cancellation ID: CN-TEST.",
      },
    ],
    [
      "staff settled the store's write by hand",
      store("resolved"),
      {
        tone: "neutral",
        text: "Our team has handled the cancellation of order 3004. Cancellation ID: CN-TEST.",
      },
    ],
    [
      "the store cancelled it",
      store("succeeded"),
      {
        tone: "success",
        text: "Order 3004 cancelled. €45.00 will be refunded. Cancellation ID: CN-TEST.",
      },
    ],
  ];

  it.each(rows)("at the store, %s", (_, effects, note) => {
    expect(described("cancel_order", { store: true, effects }).outcome).toEqual(note);
  });

  it("one that already existed says so whatever its effects", () => {
    expect(
      described("cancel_order", {
        result: "existed",
        effects: store("failed", ORDER_CHANGED_AT_STORE),
      }).outcome,
    ).toEqual({
      tone: "neutral",
      text: "Order 3004 was already cancelled (ID CN-TEST). Nothing new was done.",
    });
  });
});

describe("change_delivery_address's card and notes", () => {
  const to = "Anna Petrova, Torstraße 1, 10119 Berlin, DE";
  const notesWithId = (executed: string, changeId = "AC-TEST"): Record<NoteKind, string> => ({
    executed,
    existed: `Order 3004 was already going to ${to} (${changeId}); nothing new was done.`,
    cancelled: "You kept the delivery address of order 3004: nothing was changed.",
    expired:
      "The offer to change the address of order 3004 expired before it was confirmed. Nothing was changed.",
    stale:
      "Order 3004 changed after the offer was made (it may have shipped), so its address was not changed. Ask again to see what is possible now.",
    superseded:
      "The offer to change the address of order 3004 was replaced by a newer one. Nothing was done with it.",
    failed:
      "Something went wrong while changing the address of order 3004. Nothing was changed; please try again.",
  });

  it("the card: both addresses and the warning", () => {
    const d = described("change_delivery_address", { result: null });
    expect(d.rows).toEqual([
      { key: "order", label: "Order", value: "3004 · placed May 4, 2026" },
      {
        key: "address-from",
        label: "Current address",
        value: "Anna Petrova, Hauptstraße 12, 10115 Berlin, DE",
      },
      { key: "address-to", label: "New address", value: to },
    ]);
    expect(d.amount).toBeNull();
    expect(d.warning).toBe("Check the new address carefully: the order will be shipped there.");
    expect(d.outcome).toBeNull();
  });

  it("an order with no address on record shows none as the current one", () => {
    const sample = SAMPLES.change_delivery_address!;
    const d = describeAction(
      getTool("change_delivery_address") as WriteTool,
      { ...sample, plan: { ...(sample.plan as object), from: null }, result: null },
      "en",
    );
    expect(d.rows.find((r) => r.key === "address-from")?.value).toBe("None on record");
    expect(d.summary).toBe(
      `If you confirm, order 3004 will be delivered to ${to} instead of None on record. Nothing happens until you confirm.`,
    );
  });

  it("every chat note, for the built-in store and for the connected store", () => {
    expect(described("change_delivery_address").notes).toEqual(
      notesWithId(`Order 3004 will be delivered to ${to} (change AC-TEST).`),
    );
    expect(described("change_delivery_address", { store: true }).notes).toEqual(
      notesWithId(
        `The new address of order 3004 (${to}) is on its way to the store (change AC-TEST); the card shows when the store has it.`,
      ),
    );
  });

  it("before a result there is no change id to name", () => {
    expect(described("change_delivery_address", { result: null }).notes).toEqual(
      notesWithId(`Order 3004 will be delivered to ${to} (change ).`, ""),
    );
  });

  const store = (status: EffectStatus, code: string | null = null) => [
    effect("store.change_address", status, code),
  ];
  const warehouse = (status: EffectStatus) => [effect("warehouse.address_changed", status)];
  const rows: NoteRow[] = [
    [
      "no webhook: the change is made",
      [],
      {
        tone: "success",
        text: `The delivery address of order 3004 is now ${to}. Change ID: AC-TEST.`,
      },
    ],
    ...(["pending", "in_flight"] as const).map(
      (s): NoteRow => [
        `the warehouse is being told (${s})`,
        warehouse(s),
        {
          tone: "success",
          text: `The delivery address of order 3004 is now ${to}. The warehouse is being told. Change ID: AC-TEST.`,
        },
      ],
    ),
    [
      "the warehouse has been told",
      warehouse("succeeded"),
      {
        tone: "success",
        text: `The delivery address of order 3004 is now ${to}. The warehouse has been told. Change ID: AC-TEST.`,
      },
    ],
    [
      "the warehouse could not be told",
      warehouse("failed"),
      {
        tone: "warning",
        text: `The delivery address of order 3004 is now ${to}, but the warehouse could not be told: our team will make sure it ships there. Change ID: AC-TEST.`,
      },
    ],
    [
      "telling the warehouse is delayed",
      warehouse("needs_attention"),
      {
        tone: "warning",
        text: `The delivery address of order 3004 is now ${to}. Telling the warehouse is delayed; our team is checking it. Change ID: AC-TEST.`,
      },
    ],
    [
      "staff handled the warehouse",
      warehouse("resolved"),
      {
        tone: "neutral",
        text: `The delivery address of order 3004 is now ${to}; our team handled the warehouse. Change ID: AC-TEST.`,
      },
    ],
    [
      "at the store, the store refused it: the order changed there",
      store("failed", ORDER_CHANGED_AT_STORE),
      {
        tone: "warning",
        text: "Order 3004 changed at the store before its address could be changed, so it keeps its old address. It was checked again as it is now: see the next message.",
      },
    ],
    ...(["pending", "in_flight"] as const).map(
      (s): NoteRow => [
        `at the store, it is being sent (${s})`,
        store(s),
        {
          tone: "neutral",
          text: `The new delivery address of order 3004 (${to}) is being sent to the store. Change ID: AC-TEST.`,
        },
      ],
    ),
    [
      "at the store, it was not accepted",
      store("failed", "store_rejected"),
      {
        tone: "warning",
        text: "The store did not accept the new address for order 3004, so it keeps its old address. Our team will contact you. Change ID: AC-TEST.",
      },
    ],
    [
      "at the store, it is delayed",
      store("needs_attention"),
      {
        tone: "warning",
        text: "Changing the address of order 3004 at the store is delayed; our team is checking it and will contact you. Change ID: AC-TEST.",
      },
    ],
    [
      "at the store, staff settled it by hand",
      store("resolved"),
      {
        tone: "neutral",
        text: "Our team has handled the address change of order 3004. Change ID: AC-TEST.",
      },
    ],
    [
      "at the store, the store applied it",
      store("succeeded"),
      {
        tone: "success",
        text: `The delivery address of order 3004 is now ${to}. Change ID: AC-TEST.`,
      },
    ],
  ];

  it.each(rows)("%s", (_, effects, note) => {
    expect(described("change_delivery_address", { effects }).outcome).toEqual(note);
  });

  it("one the order already had says so whatever its effects", () => {
    for (const effects of [[], warehouse("failed"), store("failed", ORDER_CHANGED_AT_STORE)]) {
      expect(described("change_delivery_address", { result: "existed", effects }).outcome).toEqual({
        tone: "neutral",
        text: `Order 3004 was already going to ${to} (change AC-TEST). Nothing new was done.`,
      });
    }
  });
});

describe("create_return_request's card and notes", () => {
  const notesWithId = (executed: string, requestId = "RR-TEST"): Record<NoteKind, string> => ({
    executed,
    existed: `Order 7718 already has return request ${requestId}; nothing new was created.`,
    cancelled: "You cancelled the return request for order 7718. Nothing was created.",
    expired: "The offer for order 7718 expired before it was confirmed. Nothing was created.",
    stale:
      "Order 7718 changed after the offer was made, so nothing was created. Ask again for a fresh offer.",
    superseded:
      "The offer for order 7718 was replaced by a newer one. Nothing was created from it.",
    failed:
      "Something went wrong while creating the return for order 7718. Nothing was created; please try again.",
  });

  it("every chat note, for the built-in store and for the connected store", () => {
    expect(described("create_return_request").notes).toEqual(
      notesWithId("Return request RR-TEST for order 7718 has been created."),
    );
    expect(described("create_return_request", { store: true }).notes).toEqual(
      notesWithId(
        "Return request RR-TEST for order 7718 is on its way to the store; the card shows when the store has it.",
      ),
    );
  });

  it("before a result there is no request id to name", () => {
    expect(described("create_return_request", { result: null }).notes).toEqual(
      notesWithId("Return request  for order 7718 has been created.", ""),
    );
  });

  const store = (status: EffectStatus, code: string | null = null) => [
    effect("store.create_return", status, code),
  ];
  const received = (phase: string) =>
    `Return RR-TEST: we received your parcel. Refund of €258.90: ${phase}.`;
  const refundRows = (kind: EffectKind, where: string): NoteRow[] => [
    ...(["pending", "in_flight"] as const).map(
      (s): NoteRow => [
        `${where}, the parcel is in and the refund is processing (${s})`,
        [effect(kind, s)],
        { tone: "neutral", text: received("processing") },
      ],
    ),
    [
      `${where}, refunded`,
      [effect(kind, "succeeded")],
      { tone: "success", text: received("refunded") },
    ],
    [
      `${where}, the refund failed`,
      [effect(kind, "failed")],
      { tone: "warning", text: received("the refund failed: our team will contact you") },
    ],
    [
      `${where}, the refund is delayed`,
      [effect(kind, "needs_attention")],
      {
        tone: "warning",
        text: received("delayed; our team is checking it and will contact you"),
      },
    ],
    [
      `${where}, staff settled the refund`,
      [effect(kind, "resolved")],
      { tone: "neutral", text: received("settled by our team") },
    ],
  ];
  const rows: NoteRow[] = [
    [
      "until the parcel is in: created, and the card keeps following it",
      [],
      { tone: "success", text: "Return request created. Request ID: RR-TEST.", awaiting: true },
    ],
    ...refundRows("payment.refund", "ours"),
    ...refundRows("store.receive_return", "the store's"),
    [
      "at the store, the store refused it: the order changed there",
      store("failed", ORDER_CHANGED_AT_STORE),
      {
        tone: "warning",
        text: "Order 7718 changed at the store before the return could be requested, so no return was made. It was checked again as it is now: see the next message.",
      },
    ],
    ...(["pending", "in_flight"] as const).map(
      (s): NoteRow => [
        `at the store, it is being sent (${s})`,
        store(s),
        {
          tone: "neutral",
          text: "Return request RR-TEST for order 7718 is being sent to the store.",
        },
      ],
    ),
    [
      "at the store, it was not accepted",
      store("failed", "store_rejected"),
      {
        tone: "warning",
        text: "The store did not accept the return for order 7718, so no return was made. Our team will contact you. Request ID: RR-TEST.",
      },
    ],
    [
      "at the store, it is delayed",
      store("needs_attention"),
      {
        tone: "warning",
        text: "Sending return request RR-TEST to the store is delayed; our team is checking it and will contact you.",
      },
    ],
    [
      "at the store, staff settled it by hand",
      store("resolved"),
      { tone: "neutral", text: "Our team has handled return request RR-TEST for order 7718." },
    ],
    [
      "at the store, the store has it and the parcel is awaited",
      store("succeeded"),
      { tone: "success", text: "Return request created. Request ID: RR-TEST.", awaiting: true },
    ],
    [
      "at the store, the store received the parcel and refunded it",
      [...store("succeeded"), effect("store.receive_return", "succeeded")],
      { tone: "success", text: received("refunded") },
    ],
  ];

  it.each(rows)("%s", (_, effects, note) => {
    expect(described("create_return_request", { effects }).outcome).toEqual(note);
  });

  it("one that already existed says so whatever its effects", () => {
    expect(
      described("create_return_request", {
        result: "existed",
        effects: store("failed", ORDER_CHANGED_AT_STORE),
      }).outcome,
    ).toEqual({
      tone: "neutral",
      text: "A return request already existed (ID RR-TEST). Nothing new was created.",
    });
  });
});
