import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { env } from "@/lib/env";
import { expectNoSeriousA11yViolations } from "./a11y";
import { expect, seedTurns, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";
import { strictServerURL } from "./servers";

/**
 * Every word true, read as a person reads the pages: the activity line over a refusal, a
 * cancelled order's return refused before any reason is asked, a return of items not carried over
 * to the order asked about before, the customer's own words in the return comment, the decided
 * card in Russian, the address question that names what is missing, the audit's Error column,
 * staff's landing page with what waits for them, the staff pages' widths at 1280 px, the axis of
 * a flat drift chart at 1280 and 375 px, the candidate page and its rollback, and axe on every
 * staff page.
 */

test("a refused return is not called 'prepared' above the refusal", async ({ page, anna }) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const order = anna.order("5120");
  await chat.ask(`Create a return request for order ${order}. It is defective.`);
  await expect(chat.toolActivity.last()).toHaveText(
    `✗Checked order ${order}: a return is not possible`,
  );
  await expect(page.getByText(`Prepared a return request for order ${order}`)).toHaveCount(0);
  await expect(chat.cards).toHaveCount(0);
});

test("a return of a cancelled order is refused at once, before any reason is asked", async ({
  page,
  boris,
}) => {
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const order = boris.order("1187");
  await chat.ask(`Cancel order ${order}, I ordered it by mistake`);
  await chat.card.getByRole("button", { name: "Confirm" }).click();
  await expect(chat.card.getByRole("heading")).toHaveText(`Cancellation of order ${order}`);
  // The confirm's own line in the chat comes as a message of its own: wait for it, so that the
  // next question's answer is counted after it.
  await expect(chat.assistantMessages).toHaveCount(2);

  const answer = await chat.ask(`I want to return order ${order}`);
  await expect(answer).toContainText(
    `Order ${order} was cancelled, so there is nothing to return.`,
  );
  await expect(answer).not.toContainText("reason");
  await expect(chat.cards).toHaveCount(1);
});

test("a return of items is not carried over to the order asked about before", async ({
  page,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const coffee = anna.order("7718");
  const sheets = anna.order("5120");
  await chat.ask(`Can I return order ${coffee}?`);
  // The bed sheets are in another of Anna's orders: 7718's return is not asked about.
  const ask = await chat.ask("Return 1 of the 2 bed sheets");
  await expect(ask).toContainText(
    `Order ${coffee} doesn't have that item. Which order is it from? Please send me its four-digit number.`,
  );
  await expect(ask).not.toContainText("reason");
  const reason = await chat.ask("defective");
  await expect(reason).toContainText("Which order is it from?");
  await expect(chat.cards).toHaveCount(0);
  // The order that has them: the policy answers (its window has passed), and no card at all.
  const answer = await chat.ask(sheets);
  await expect(answer).toContainText(`Order ${sheets} was delivered too long ago`);
  await expect(chat.cards).toHaveCount(0);
  await expect(page.getByText(`reason for returning order ${coffee}`)).toHaveCount(0);
});

test("the English return comment keeps the customer's words", async ({ page, anna }) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const order = anna.order("7718");
  await chat.ask(`I want to return order ${order}. The coffee machine is defective, it leaks.`);
  await expect(chat.card.getByTestId("confirm-reason")).toHaveText("Defective");
  await expect(chat.card.getByTestId("confirm-comment")).toHaveText(
    "The coffee machine is defective, it leaks",
  );
  await chat.startNewChat();
  await chat.ask(`Please return order ${order}, it leaks`);
  await expect(chat.card.getByTestId("confirm-comment")).toHaveText("It leaks");
});

test.describe("in Russian", () => {
  test("a return of a cancelled order is refused at once, in Russian", async ({ page, boris }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = boris.order("1187");
    await chat.ask(`Отмените заказ ${order}, заказал по ошибке`);
    await chat.card.getByRole("button", { name: "Подтвердить" }).click();
    await expect(chat.card.getByRole("heading")).toHaveText(`Отмена заказа ${order}`);
    // The confirm's own line in the chat comes as a message of its own: wait for it, so that the
    // next question's answer is counted after it.
    await expect(chat.assistantMessages).toHaveCount(2);

    const answer = await chat.ask(`Хочу вернуть заказ ${order}`);
    await expect(answer).toContainText(`Заказ ${order} отменён, поэтому возвращать нечего.`);
    await expect(answer).not.toContainText("причин");
    await expect(chat.cards).toHaveCount(1);
  });

  test("a return of items is not carried over to the order asked about before, in Russian", async ({
    page,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const coffee = anna.order("7718");
    await chat.ask(`Можно вернуть заказ ${coffee}?`);
    const ask = await chat.ask("Верните 1 из 2 простыней");
    await expect(ask).toContainText(
      `В заказе ${coffee} такого товара нет. Из какого он заказа? Пришлите, пожалуйста, его четырёхзначный номер.`,
    );
    await chat.ask("брак");
    await expect(chat.cards).toHaveCount(0);
  });

  test("the return comment keeps the customer's words, in Russian", async ({ page, anna }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    await chat.ask(`Хочу вернуть заказ ${anna.order("7718")}. Кофемашина бракованная, протекает.`);
    await expect(chat.card.getByTestId("confirm-comment")).toHaveText(
      "Кофемашина бракованная, протекает",
    );
  });

  test.use({ locale: "ru-RU" });

  test("a cancellation card the customer declines names its subject and says nothing was done", async ({
    page,
    boris,
  }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = boris.order("1187");
    await chat.ask(`Отмените заказ ${order}, заказал по ошибке`);
    await expect(chat.card.getByRole("heading")).toHaveText(`Подтвердите отмену заказа ${order}`);
    await chat.card.getByRole("button", { name: "Отменить" }).click();
    await expect(chat.card.getByRole("status")).toHaveText(
      "Вы отказались от этого запроса, поэтому ничего не сделано.",
    );
    // Decided, the card no longer asks: a heading that names it, no "until you confirm".
    await expect(chat.card.getByRole("heading")).toHaveText(`Отмена заказа ${order}`);
    await expect(chat.card).not.toContainText("Без вашего подтверждения");
  });

  test("the address question names what is missing and does not ask for a name", async ({
    page,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = anna.order("3004");
    const answer = await chat.ask(
      `Смените адрес доставки заказа ${order} на Torstraße 1, 10119 Berlin`,
    );
    await expect(answer).toContainText(`В нём не хватает: страна.`);
    await expect(answer).not.toContainText("имя,");
    await expect(chat.cards).toHaveCount(0);
  });

  test("staff land on what waits for them, in Russian, with counts and links", async ({ page }) => {
    await new SignInPage(page).demo("staff");
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Что ждёт вас" })).toBeVisible();
    const approvals = page.getByRole("link", { name: /^Возвраты денег ждут вашего одобрения/ });
    await expect(approvals).toHaveText(/\d+\+?$/);
    await expect(page.getByRole("link", { name: /^Чаты, переданные человеку/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Открытые оповещения/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

/** How many the landing page says, from the link's text (its last number). */
async function countOf(page: Page, name: RegExp): Promise<number> {
  const text = (await page.getByRole("link", { name }).textContent()) ?? "";
  return Number(/(\d+)\+?\s*$/.exec(text)?.[1]);
}

for (const width of [1280, 375]) {
  test(`staff landing page at ${width} px: each kind of work with its count and its page`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await new SignInPage(page).demo("staff");
    await page.goto("/");
    const items = page.getByTestId("staff-work-item");
    await expect(items).toHaveCount(5);
    for (const name of [
      /^Refunds waiting for your approval/,
      /^Chats handed to a person/,
      /^Effects whose outcome is unknown/,
      /^Effects the provider refused/,
      /^Open alerts/,
    ]) {
      const link = page.getByRole("link", { name });
      await expect(link).toBeVisible();
      const box = await link.boundingBox();
      expect(box && box.x + box.width <= width).toBe(true);
    }
    // The count agrees with the page it leads to.
    const approvals = await countOf(page, /^Refunds waiting for your approval/);
    await page.getByRole("link", { name: /^Refunds waiting for your approval/ }).click();
    await expect(page).toHaveURL(/\/audit\/approvals$/);
    await expect(page.getByTestId("approval")).toHaveCount(approvals);
    await expectNoSeriousA11yViolations(page);
  });
}

test("the audit at 1280 px: the table fits its box, and a proposal is not an error", async ({
  page,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(`Create a return request for order ${anna.order("7718")}. It arrived damaged.`);
  await expect(chat.cards).toHaveCount(1);
  await page.context().clearCookies();

  await page.setViewportSize({ width: 1280, height: 900 });
  await new SignInPage(page).demo("staff");
  // The whole table, every tool's and model's names in it: no column cut at the box's edge.
  await page.goto("/audit");
  const table = page.getByTestId("audit-table");
  await expect(table).toBeVisible();
  const fits = await table.evaluate((t) => {
    const box = t.parentElement!;
    return { table: Math.round(t.getBoundingClientRect().width), box: box.clientWidth };
  });
  expect(fits.table).toBeLessThanOrEqual(fits.box);
  await page.goto(`/audit?customer=${encodeURIComponent(anna.email)}`);
  // The proposal's row: status "confirmation required", and nothing in the Error column.
  const row = page
    .getByTestId("audit-row")
    .filter({ has: page.getByTestId("audit-tool").getByText("create_return_request") })
    .first();
  await expect(row.getByTestId("audit-error")).toHaveText("—");
  await expect(
    page.getByTestId("audit-error").filter({ hasText: "confirmation_required" }),
  ).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test("the metrics page: its header lines up with its content at 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await new SignInPage(page).demo("staff");
  await page.goto("/audit/metrics");
  const left = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => Math.round(el.getBoundingClientRect().left));
  await expect.poll(async () => (await left("header nav a")) - (await left("main h1"))).toBe(0);
  const right = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => Math.round(el.getBoundingClientRect().right));
  expect(await right("main section")).toBeLessThanOrEqual(1280);
});

test.describe("a flat drift chart", () => {
  // A profile of its own whose last three closed windows had quiet turns: no error, no tool, so
  // its error rate, payload and tool mix stay at 0. The windows are earlier hours' (the charts
  // draw closed windows only), so the turns are written as the chat stores them, back-dated.
  const fingerprint = `e2e-flat-${randomUUID().slice(0, 8)}`;
  test.beforeAll(async ({ baseURL }) => {
    const ms = env().DRIFT_WINDOW_SECONDS * 1000;
    const current = Math.floor(Date.now() / ms);
    await seedTurns(
      baseURL!,
      [3, 2, 1].flatMap((back) =>
        [0, 1].map((i) => ({
          at: new Date((current - back) * ms + ms / 2 + i * 1000),
          kind: "turn" as const,
          provider: "offline",
          model: "returns-desk-offline-1",
          promptVersion: "support-v2",
          latencyMs: 900,
          inputTokens: 1200,
          outputTokens: 40,
          steps: 1,
          toolCalls: [],
          payloadBytes: 0,
          fingerprint,
        })),
      ),
    );
  });

  for (const width of [1280, 375]) {
    test(`at ${width} px its axis names each value once, not "0.0% 0.0% 0.0%"`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await new SignInPage(page).demo("staff");
      await page.goto("/audit/metrics");
      const profile = page
        .getByTestId("drift-profiles")
        .locator(":scope > div")
        .filter({ has: page.getByRole("heading", { name: `profile ${fingerprint}: 3 windows` }) });
      await expect(profile).toHaveCount(1);
      // The axis labels as drawn, bottom to top, in each chart's own format.
      const axis = async (signal: string) => {
        const chart = profile.getByTestId(`drift-chart-${signal}`);
        await expect(chart).toBeVisible();
        return chart.locator("text").allTextContents();
      };
      // Flat at 0: one label, 0 in the chart's format.
      expect(await axis("errorRate")).toEqual(["0.0%"]);
      expect(await axis("payloadP95Bytes")).toEqual(["0 B"]);
      expect(await axis("toolMixDivergence")).toEqual(["0"]);
      // Flat above 0: the axis runs from 0 past the value, every label different.
      const latency = await axis("latencyP95Ms");
      expect(latency[0]).toBe("0 ms");
      expect(latency.length).toBeGreaterThan(1);
      expect(new Set(latency).size).toBe(latency.length);
    });
  }
});

for (const width of [1280, 375]) {
  test(`the candidate page at ${width} px: its mode in staff words, no rollback without a candidate`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await new SignInPage(page).demo("staff");
    await page.goto("/audit/candidate");
    await expect(page.getByRole("heading", { name: "Candidate model", level: 1 })).toBeVisible();
    // The main e2e server runs without a candidate (CANDIDATE_MODE off).
    await expect(page.getByTestId("candidate-mode")).toHaveText(
      "off: every turn is answered by the live model",
    );
    await expect(page.getByTestId("candidate-fingerprint")).toHaveText("none configured");
    await expect(
      page.getByRole("heading", { name: "Shadow: agreement with the live model" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Rollbacks" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Roll back the candidate" })).toHaveCount(0);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
  });
}

test.describe("on a server with a candidate", () => {
  // The strict server runs a canary candidate at share 0 (playwright.config.ts).
  test.use({ baseURL: strictServerURL });

  test("staff roll the candidate back with a reason, and the page lists the rollback", async ({
    page,
  }) => {
    await new SignInPage(page).demo("staff");
    await page.goto("/audit/candidate");
    await expect(page.getByTestId("candidate-mode")).toHaveText(
      "canary: the candidate answers a share of turns itself",
    );
    const rollbacks = page.getByRole("region", { name: "Rollbacks" });
    await expect(rollbacks).toContainText("The candidate has not been rolled back.");
    await expect(rollbacks.getByRole("listitem")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Reason for the rollback").fill("It proposed returns nobody asked for");
    await page.getByRole("button", { name: "Roll back the candidate" }).click();
    await expect(rollbacks.getByRole("listitem").first()).toContainText(
      "Rolled back by staff: It proposed returns nobody asked for. Every turn is live since",
    );
    // Rolled back, the form is gone: there is nothing left to roll back.
    await expect(page.getByRole("button", { name: "Roll back the candidate" })).toHaveCount(0);
    // The API says the same.
    const api = await page.request.get("/api/staff/candidate");
    expect(((await api.json()) as { rollback: { reason: string } }).rollback.reason).toBe(
      "It proposed returns nobody asked for",
    );
    await expectNoSeriousA11yViolations(page);
  });
});

// Every staff page by its address (the others are scanned where their tests reach them: the
// action and event timelines, the transcript, the customer's pages, the chat and the widget).
for (const path of [
  "/",
  "/audit",
  "/audit/approvals",
  "/audit/handoffs",
  "/audit/queue",
  "/audit/returns",
  "/audit/metrics",
  "/audit/candidate",
]) {
  test(`axe on the staff page ${path}: no serious violations`, async ({ page }, testInfo) => {
    await new SignInPage(page).demo("staff");
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page, {
      testInfo,
      name: `staff${path.replaceAll("/", "-")}`,
    });
  });
}
