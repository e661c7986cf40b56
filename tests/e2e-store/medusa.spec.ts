import { expect, type Page, test } from "@playwright/test";
import { ChatPage, OrdersPage, SignInPage } from "../e2e/pages";

/**
 * STORE_BACKEND=medusa in Chromium, against the real demo Medusa store that
 * scripts/e2e-store.mjs started (its orders exist only there: display ids from 1001). Anna is
 * linked to her Medusa customer with `npm run users -- link`. She asks about, cancels and returns
 * orders in English and in Russian; Boris's order is "not found" for her. Her orders page shows a
 * cancelled order's real total (Medusa reports 0 for it), in both languages. Afterwards Medusa's own
 * Admin API shows each change with our operation id in its metadata, and staff's action page
 * names the store and the store's references.
 */
test.describe.configure({ mode: "serial" });

const medusa = JSON.parse(process.env.E2E_MEDUSA ?? "{}") as {
  url: string;
  apiKey: string;
  orders: { displayId: string; customerEmail: string; state: string }[];
};

/** The demo store's orders of one customer in one state, in display-id order. */
function ordersOf(email: string, state: string): string[] {
  return medusa.orders
    .filter((o) => o.customerEmail === email && o.state === state)
    .map((o) => o.displayId);
}
const ANNA = "anna@example.com";
const [cancelEn, cancelRu] = ordersOf(ANNA, "processing") as [string, string];
const [returnEn, returnRu] = ordersOf(ANNA, "delivered_recent") as [string, string];
const [shipped] = ordersOf(ANNA, "shipped") as [string];
// Cancelled at Medusa by the seed, after it was paid: one Water Bottle at €25.
const [cancelled] = ordersOf(ANNA, "cancelled") as [string];
const [boris] = ordersOf("boris@example.com", "processing") as [string];

/** Medusa's Admin API, straight (not through Returns Desk). */
async function admin<T>(path: string): Promise<T> {
  const r = await fetch(`${medusa.url}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${medusa.apiKey}:`).toString("base64")}` },
  });
  if (!r.ok) throw new Error(`Medusa ${path}: ${r.status}`);
  return (await r.json()) as T;
}

type MedusaOrder = {
  id: string;
  display_id: number;
  status: string;
  metadata: Record<string, unknown> | null;
};
async function medusaOrder(displayId: string): Promise<MedusaOrder> {
  const { orders } = await admin<{ orders: MedusaOrder[] }>(
    "/admin/orders?fields=id,display_id,status,metadata&limit=100",
  );
  const order = orders.find((o) => String(o.display_id) === displayId);
  if (!order) throw new Error(`no order ${displayId} at Medusa`);
  return order;
}
async function medusaReturns(orderId: string) {
  const { returns } = await admin<{
    returns: { id: string; status: string; metadata: Record<string, unknown> | null }[];
  }>(`/admin/returns?order_id=${orderId}&fields=id,status,metadata`);
  return returns;
}

/** What the test learnt, for the checks at Medusa and on staff's pages. */
const done: { kind: "cancel" | "return"; displayId: string; actionId: string }[] = [];

async function confirm(chat: ChatPage, kind: "cancel" | "return", displayId: string) {
  const actionId = await chat.card.getAttribute("data-action-id");
  expect(actionId).toBeTruthy();
  await chat.card.getByTestId("confirm-button").click();
  done.push({ kind, displayId, actionId: actionId as string });
  return chat.card.getByTestId("confirm-outcome");
}

/** The orders page reads the store when it loads: reload until the relay's write shows there. */
async function expectStatusOnOrdersPage(page: Page, displayId: string, status: string) {
  const orders = new OrdersPage(page);
  await expect(async () => {
    await orders.goto();
    await expect(orders.order(displayId).getByTestId("order-status")).toHaveText(status, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
}

/** The orders page shows "Return requested" once the store has the return (the relay's write). */
async function expectReturnBadge(page: Page, displayId: string) {
  const orders = new OrdersPage(page);
  await expect(async () => {
    await orders.goto();
    await expect(orders.returnBadge(displayId)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

test("Anna, in English: a Medusa order's status, Boris's order not found, a cancel and a return", async ({
  page,
}) => {
  await new SignInPage(page).demo("anna");
  // Her orders page lists the store's orders, not the built-in demo's.
  const orders = new OrdersPage(page);
  await orders.goto();
  await expect(orders.order(cancelEn)).toBeVisible();
  await expect(orders.order(boris)).toHaveCount(0);
  await expect(orders.order("3004")).toHaveCount(0);

  const chat = new ChatPage(page);
  await chat.startNewChat();
  const status = await chat.ask(`Where is my order ${shipped}?`);
  await expect(status.getByTestId("tool-activity")).toContainText(`Checked order ${shipped}`);
  await expect(status).toContainText(`Order ${shipped}`);
  await expect(status).toContainText("shipped");

  // Boris's order exists at the store, but not for Anna: the same answer as a made-up number.
  const other = await chat.ask(`Where is my order ${boris}?`);
  await expect(other).toContainText(`I couldn't find`);
  await expect(other).toContainText(boris);
  const none = await chat.ask("Where is my order 9999?");
  await expect(none).toContainText(`I couldn't find`);
  await expect(chat.cards).toHaveCount(0);

  const cancel = await chat.ask(`I ordered it by mistake, please cancel ${cancelEn}`);
  await expect(cancel).toContainText(`I've prepared the cancellation of order ${cancelEn}`);
  await expect(chat.card.getByTestId("confirm-items")).toContainText("Trail Running Shoes");
  await expect(chat.card.getByTestId("confirm-refund")).toContainText("€129.00");
  await expect(await confirm(chat, "cancel", cancelEn)).toContainText(
    new RegExp(`Order ${cancelEn} (is )?cancelled.*CN-\\S+`),
  );
  await expectStatusOnOrdersPage(page, cancelEn, "Cancelled");
  // Cancelled, it still shows what it cost (Medusa's own total of it is now 0).
  await expect(orders.order(cancelEn)).toContainText("€129.00");

  await chat.startNewChat();
  const ret = await chat.ask(
    `Create a return request for order ${returnEn}. The item arrived damaged.`,
  );
  await expect(ret).toContainText(returnEn);
  await expect(chat.card.getByTestId("confirm-order")).toContainText(returnEn);
  const outcome = await confirm(chat, "return", returnEn);
  await expect(outcome).toContainText(/RR-\S+/);
  const requestId = /RR-[A-Z0-9]+/.exec((await outcome.textContent()) ?? "")?.[0];
  expect(requestId).toBeTruthy();

  // Once the store has the return, her orders page shows it (read from Medusa, labelled with our
  // request), and get_order_status mentions it; the cancelled order has none.
  await expectReturnBadge(page, returnEn);
  await expect(orders.returnBadge(cancelEn)).toHaveCount(0);
  await chat.startNewChat();
  const after = await chat.ask(`Where is my order ${returnEn}?`);
  await expect(after).toContainText(`It already has a return request (${requestId})`);
});

test("Anna, in Russian: a status, a cancel with «Подтвердить» and a return", async ({ page }) => {
  await new SignInPage(page).demo("anna");
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const status = await chat.ask(`Где мой заказ ${shipped}?`);
  await expect(status.getByTestId("tool-activity")).toContainText(`Проверен заказ ${shipped}`);
  await expect(status).toContainText("отправлен");
  const other = await chat.ask(`Где мой заказ ${boris}?`);
  await expect(other).toContainText(`Я не нашёл`);

  const cancel = await chat.ask(`Отмените заказ ${cancelRu}, пожалуйста`);
  await expect(cancel).toContainText(`Я подготовил отмену заказа ${cancelRu}`);
  await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
  await expect(await confirm(chat, "cancel", cancelRu)).toContainText(
    new RegExp(`Заказ ${cancelRu} отмен.*CN-\\S+`),
  );
  // The page's language is the browser's (English); the chat's follows the customer's words.
  await expectStatusOnOrdersPage(page, cancelRu, "Cancelled");

  await chat.startNewChat();
  const ret = await chat.ask(`Оформите возврат заказа ${returnRu}, товар пришёл повреждённым.`);
  await expect(ret).toContainText(`Я подготовил заявку на возврат по заказу ${returnRu}`);
  await expect(await confirm(chat, "return", returnRu)).toContainText(/RR-\S+/);
  // Asked again once the store has it: the existing request, no second card.
  await expectReturnBadge(page, returnRu);
  await chat.startNewChat();
  const again = await chat.ask(`Оформите возврат заказа ${returnRu}, товар пришёл повреждённым.`);
  await expect(again).toContainText(`По заказу ${returnRu} уже есть заявка на возврат`);
  await expect(chat.cards).toHaveCount(0);
});

test.describe("a cancelled Medusa order on the orders page shows what it cost", () => {
  test("in English", async ({ page }) => {
    await new SignInPage(page).demo("anna");
    const orders = new OrdersPage(page);
    await orders.goto();
    const order = orders.order(cancelled);
    await expect(order.getByRole("heading")).toHaveText(`Order ${cancelled}`);
    await expect(order.getByTestId("order-status")).toHaveText("Cancelled");
    await expect(order).toContainText("1 × Water Bottle");
    await expect(order).toContainText("€25.00");
    await expect(order).not.toContainText("€0.00");
  });

  test.describe("in Russian", () => {
    test.use({ locale: "ru-RU" });

    test("its heading, status and total in Russian", async ({ page }) => {
      await new SignInPage(page).demo("anna");
      const orders = new OrdersPage(page);
      await orders.goto();
      const order = orders.order(cancelled);
      await expect(order.getByRole("heading")).toHaveText(`Заказ ${cancelled}`);
      await expect(order.getByTestId("order-status")).toHaveText("Отменён");
      await expect(order).toContainText("1 × Water Bottle");
      await expect(order).toContainText("25,00 €");
      await expect(order).not.toContainText("0,00 €");
    });
  });
});

test("Medusa's Admin API shows each change with our operation id; staff's action page names the store", async ({
  page,
}) => {
  expect(done.map((d) => d.kind)).toEqual(["cancel", "return", "cancel", "return"]);
  for (const d of done) {
    const order = await medusaOrder(d.displayId);
    if (d.kind === "cancel") {
      await expect
        .poll(async () => (await medusaOrder(d.displayId)).status, { timeout: 60_000 })
        .toBe("canceled");
      expect((await medusaOrder(d.displayId)).metadata).toMatchObject({
        returns_desk_cancel_operation_id: d.actionId,
      });
    } else {
      await expect
        .poll(
          async () =>
            (await medusaReturns(order.id))
              .filter((r) => r.metadata?.returns_desk_return_operation_id === d.actionId)
              .map((r) => r.status),
          { timeout: 60_000 },
        )
        .toEqual(["requested"]);
    }
  }
  // Nothing else at the store changed: Boris's order is untouched, one return per returned order.
  expect((await medusaOrder(boris)).status).not.toBe("canceled");

  await new SignInPage(page).demo("staff");
  for (const d of done) {
    const order = await medusaOrder(d.displayId);
    await page.goto(`/audit/actions/${d.actionId}`);
    const kind = d.kind === "cancel" ? "store.cancel_order" : "store.create_return";
    const effect = page.locator(`[data-testid="action-effect"][data-kind="${kind}"]`);
    await expect(effect).toHaveCount(1);
    await expect(effect).toHaveAttribute("data-status", "succeeded");
    await expect(effect.getByTestId("effect-store")).toHaveText(`medusa · ${order.id}`);
    const ref = d.kind === "cancel" ? order.id : (await medusaReturns(order.id))[0]!.id;
    await expect(effect.getByTestId("effect-provider-ref")).toHaveText(ref);
  }
});
