/**
 * Free text from every entry point goes through one normaliser (lib/text/free-text.ts) before it
 * is stored: a customer's revision of a comment or an address, a staff reject reason, and a
 * model's arguments. Through the real route handlers, on SQLite and on PostgreSQL, whose text
 * cannot hold a NUL (a revision with one answered 500 at confirm there, 22021, and a reject with
 * one as well). Bidi overrides and zero-width characters never reach the stored address, which
 * staff pages and the warehouse show.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as reviseRoute } from "@/app/api/actions/[id]/revise/route";
import { POST as rejectRoute } from "@/app/api/staff/actions/[id]/reject/route";
import { deliveryAddressChanges, pendingActions } from "@/db/schema";
import { Customer } from "../helpers/chat";
import { call, signIn } from "../helpers/http";
import {
  actionRow,
  type Core,
  newChat,
  orderRow,
  propose,
  proposeWith,
  returnsFor,
  setupCore,
} from "./action-core/fixtures";

/** Everything the normaliser removes, none of which may be stored. */
const STRIPPED = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u;

let core: Core;
let anna: Customer;
let staff: string;

beforeAll(async () => {
  core = await setupCore({ APPROVAL_THRESHOLD_MINOR: "50000" });
  anna = await Customer.signIn("anna@example.com");
  staff = await signIn("staff@example.com");
});

const revise = (id: string, args: Record<string, unknown>) =>
  call(reviseRoute, `/api/actions/${id}/revise`, { id }, { cookie: anna.cookie, body: { args } });
const reject = (id: string, reason: string) =>
  call(rejectRoute, `/api/staff/actions/${id}/reject`, { id }, { cookie: staff, body: { reason } });

describe("a customer's revision", () => {
  it("a comment with NUL, controls, bidi and zero-width: stored clean, and Confirm works", async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "7718",
      reason: "damaged",
    });
    const res = await revise(a.id, {
      comment: " Lid\u0000 cracked\r\nbadly\u0007 \u202Eevil\u202C\u200B\uFEFF ",
    });
    expect(res.status).toBe(200);
    const { pendingAction } = (await res.json()) as { pendingAction: { id: string } };
    const stored = await actionRow(core.db, pendingAction.id);
    expect(stored.arguments).toMatchObject({ comment: "Lid cracked badly evil" });

    const confirmed = await anna.confirm(pendingAction.id);
    expect(confirmed.status).toBe(200);
    expect((await actionRow(core.db, pendingAction.id)).status).toBe("executed");
    const [ret] = await returnsFor(core.db, "7718");
    expect(ret?.comment).toBe("Lid cracked badly evil");
  });

  it("an address with U+202E and U+200B: neither reaches the stored change or the order", async () => {
    const a = await proposeWith(
      "change_delivery_address",
      core.anna,
      await newChat(core.db, core.anna),
      {
        orderId: "3004",
        address: { line1: "Torstraße 1", postalCode: "10119", city: "Berlin", country: "DE" },
      },
    );
    const res = await revise(a.id, {
      address: {
        name: "Anna\u200B Petrova",
        line1: "\u202E1 eßartsnesoR\u202C",
        line2: "Hof\u200D\u2066 links\u2069",
        postalCode: "10\u200B435",
        city: "Ber\u200Blin\u0000",
        country: "D\u200BE",
      },
    });
    expect(res.status).toBe(200);
    const { pendingAction } = (await res.json()) as { pendingAction: { id: string } };
    expect((await anna.confirm(pendingAction.id)).status).toBe(200);

    const expected = {
      name: "Anna Petrova",
      line1: "1 eßartsnesoR",
      line2: "Hof links",
      postalCode: "10435",
      city: "Berlin",
      country: "DE",
    };
    const [change] = await core.db
      .select()
      .from(deliveryAddressChanges)
      .where(eq(deliveryAddressChanges.actionId, pendingAction.id));
    expect(change?.toAddress).toEqual(expected);
    const order = await orderRow(core.db, "3004");
    expect({
      name: order.deliveryName,
      line1: order.deliveryLine1,
      line2: order.deliveryLine2,
      postalCode: order.deliveryPostalCode,
      city: order.deliveryCity,
      country: order.deliveryCountry,
    }).toEqual(expected);
    const [row] = await core.db
      .select({ arguments: pendingActions.arguments, plan: pendingActions.plan })
      .from(pendingActions)
      .where(eq(pendingActions.id, pendingAction.id));
    expect(JSON.stringify(row)).not.toMatch(STRIPPED);
  });
});

describe("a model's address", () => {
  it("bidi and zero-width characters are stripped before the plan and the card", async () => {
    const a = await proposeWith(
      "change_delivery_address",
      core.boris,
      await newChat(core.db, core.boris),
      {
        orderId: "1187",
        address: {
          line1: "Lenin\u200Bstraße\u202E 5",
          postalCode: "10\u2060115",
          city: "Berlin\uFEFF",
          country: "DE",
        },
      },
    );
    expect(a.arguments).toMatchObject({
      address: { line1: "Leninstraße 5", postalCode: "10115", city: "Berlin" },
    });
    expect(JSON.stringify(await actionRow(core.db, a.id))).not.toMatch(STRIPPED);
  });
});

describe("a staff reject reason", () => {
  it("only invisible characters is an empty reason (400); with NUL, CR/LF and a bidi override it is stored clean", async () => {
    const a = await propose(core.anna, await newChat(core.db, core.anna), {
      orderId: "2890",
      reason: "damaged",
    });
    expect(a.requiresApproval).toBe(true);
    expect((await anna.confirm(a.id)).status).toBe(200);
    const empty = await reject(a.id, "\u0000\u200B\u202E \r\n");
    expect(empty.status).toBe(400);
    expect((await actionRow(core.db, a.id)).status).toBe("awaiting_approval");

    const res = await reject(a.id, "Photos\u0000 needed\r\nfirst \u202Eplease\u202C\u0085");
    expect(res.status).toBe(200);
    const row = await actionRow(core.db, a.id);
    expect(row).toMatchObject({ status: "rejected", rejectReason: "Photos needed first please" });
  });
});
