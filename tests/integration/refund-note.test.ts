/**
 * The customer's outcome note through the real routes while a cancellation's refund goes through
 * the outbox: the confirm answers "processing" with `settled: false`; GET
 * /api/actions/{id} (what the card and the terminal poll) and the chat's stored card say
 * "refunded" with `settled: true` once the relay (the built-in ledger here) is done, and
 * "the refund failed" when the provider refused. Real database (SQLite, and PostgreSQL in the
 * postgres project), the real relay; no provider is faked.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getActionRoute } from "@/app/api/actions/[id]/route";
import { claimDueEffects, recordEffectOutcome } from "@/db/queries/effects";
import { runDueEffects } from "@/lib/effects/relay";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call } from "../helpers/http";
import { pendingActionPart } from "../helpers/stream";

type Note = { tone: string; text: string; settled: boolean };

describe("the cancellation's note follows its refund", () => {
  let anna: Customer;
  let boris: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    boris = await Customer.signIn("boris@example.com");
  });

  const noteOf = async (who: Customer, actionId: string): Promise<Note> => {
    const res = await call(
      getActionRoute,
      `/api/actions/${actionId}`,
      { id: actionId },
      {
        cookie: who.cookie,
      },
    );
    expect(res.status).toBe(200);
    return (await res.json()).view.outcome;
  };
  const storedCardNote = async (who: Customer, chatId: string, actionId: string) => {
    const chat = await (await who.getChat(chatId)).json();
    const parts = chat.messages.flatMap((m: { parts: { type: string; data?: { id: string } }[] }) =>
      m.parts.filter((p) => p.type === "data-pending-action" && p.data?.id === actionId),
    );
    expect(parts).toHaveLength(1);
    return parts[0].data.view.outcome as Note;
  };

  it("processing at the confirm, refunded once the relay is done; no longer unsettled after", async () => {
    const chat = await anna.newChat();
    const part = pendingActionPart(
      (await anna.say(chat, "please cancel 3004, ordered by mistake")).message,
    )!;
    const confirmed = await anna.confirm(part.id!);
    expect(confirmed.status).toBe(200);
    const processing = {
      tone: "neutral",
      text: expect.stringMatching(/^Order 3004 is cancelled\. Refund of €45\.00: processing\./),
      settled: false,
    };
    expect((await confirmed.json()).action.view.outcome).toEqual(processing);
    // No relay runs in this process until we run it: the refund is still pending.
    expect(await noteOf(anna, part.id!)).toEqual(processing);
    expect(await storedCardNote(anna, chat, part.id!)).toEqual(processing);

    // The refund, and the confirm's mail to the customer.
    expect(await runDueEffects()).toBe(2);
    const refunded = {
      tone: "success",
      text: expect.stringMatching(/^Order 3004 is cancelled\. Refund of €45\.00: refunded\./),
      settled: true,
    };
    expect(await noteOf(anna, part.id!)).toEqual(refunded);
    expect(await storedCardNote(anna, chat, part.id!)).toEqual(refunded);
  });

  it("says the refund failed, in Russian, when the provider refused it", async () => {
    const chat = await boris.newChat();
    const part = pendingActionPart((await boris.say(chat, "Отмените заказ 1187")).message)!;
    expect((await boris.confirm(part.id!)).status).toBe(200);
    expect(await noteOf(boris, part.id!)).toMatchObject({
      text: expect.stringMatching(/^Заказ 1187 отменён\. Возврат 43,90\s€: в обработке\./),
      settled: false,
    });
    // The provider's definite refusal, recorded the way the relay records it (under its lease).
    const now = new Date();
    const claimed = (
      await claimDueEffects({
        now,
        owner: "test-relay",
        leaseUntil: new Date(now.getTime() + 60_000),
        limit: 10,
      })
    ).find((e) => e.kind === "payment.refund");
    expect(claimed?.actionId).toBe(part.id);
    await recordEffectOutcome({
      id: claimed!.id,
      owner: "test-relay",
      now,
      set: { status: "failed", lastErrorCode: "charge_disputed", settledAt: now },
    });
    expect(await noteOf(boris, part.id!)).toEqual({
      tone: "warning",
      text: expect.stringMatching(
        /^Заказ 1187 отменён\. Возврат 43,90\s€: вернуть деньги не удалось, наша команда свяжется с вами\./,
      ),
      settled: true,
    });
  });
});
