import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test as base, type Page } from "@playwright/test";
import { SignJWT } from "jose";
import { expectNoSeriousA11yViolations } from "./a11y";
import { type Customer, expect, newCustomer } from "./fixtures";
import { guestCodeFromMail } from "./guest-mail";
import { appSiteURL, embedSecret, storePort } from "./servers";

/**
 * The chat on a store's own site, in real Chromium with third-party cookies blocked: a store page
 * on one site (127.0.0.1:<port>) loads /widget.js from the app on another (localhost:<port>), its
 * server signs the customer's token as docs/embed.md says, and the chat runs in a third-party
 * iframe on a partitioned session cookie. A second store page on an origin that is not allowed
 * may not frame the chat at all.
 */
type StoreCustomer = Customer & { storeCustomerId: string };

const storeOrigin = `http://127.0.0.1:${storePort}`;

/** What the store's server does: sign a short-lived token for its signed-in customer. */
function signToken(c: { sub: string; email: string; name: string }) {
  return new SignJWT({ email: c.email, name: c.name })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(c.sub)
    .setAudience(appSiteURL)
    .setIssuedAt()
    .setExpirationTime("5m")
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(embedSecret));
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
  `</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * The store: /shop (a signed-in customer), /guest (a visitor), /frame?src= (a bare iframe),
 * /blank (an empty page, for another site's frame).
 */
function storeServer(): http.Server {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://store");
    let html: string;
    if (url.pathname === "/shop" || url.pathname === "/guest") {
      const sub = url.searchParams.get("sub");
      const token =
        url.pathname === "/shop" && sub
          ? await signToken({
              sub,
              email: url.searchParams.get("email") ?? "",
              name: url.searchParams.get("name") ?? "",
            })
          : null;
      const boot = JSON.stringify({ token, locale: url.searchParams.get("lang") ?? "en" });
      html = page(
        "Test store",
        `<p>Our coffee machines.</p><script src="${appSiteURL}/widget.js" async ` +
          `onload='ReturnsDesk.boot(${boot})'></script>`,
      );
    } else if (url.pathname === "/blank") {
      html = page("Another site", "<p>Nothing here.</p>");
    } else if (url.pathname === "/frame") {
      html = page(
        "Framing test",
        `<iframe title="framed" src="${url.searchParams.get("src")}" width="400" height="300"></iframe>`,
      );
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
}

const listen = (server: http.Server, port: number) =>
  new Promise<number>((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

let store: http.Server;
let elsewhere: http.Server;
let elsewherePort: number;

const test = base.extend<{ anna: StoreCustomer; boris: StoreCustomer }>({
  anna: async ({ baseURL }, use) => {
    const storeCustomerId = `store-anna-${randomUUID().slice(0, 8)}`;
    await use({ ...(await newCustomer(baseURL!, "anna", { storeCustomerId })), storeCustomerId });
  },
  boris: async ({ baseURL }, use) => {
    const storeCustomerId = `store-boris-${randomUUID().slice(0, 8)}`;
    await use({ ...(await newCustomer(baseURL!, "boris", { storeCustomerId })), storeCustomerId });
  },
});

// Chromium as it ships with third-party cookies phased out: only a partitioned cookie survives.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--test-third-party-cookie-phaseout"],
  },
});

test.beforeAll(async () => {
  store = storeServer();
  await listen(store, storePort);
  elsewhere = storeServer();
  elsewherePort = await listen(elsewhere, 0);
});
test.afterAll(async () => {
  await new Promise((r) => store.close(r));
  await new Promise((r) => elsewhere.close(r));
});

async function openShop(p: Page, c: StoreCustomer, lang = "en") {
  const q = new URLSearchParams({ sub: c.storeCustomerId, email: c.email, name: c.name, lang });
  await p.goto(`${storeOrigin}/shop?${q}`);
  const launcher = p.getByRole("button", {
    name: lang === "ru" ? "Чат с поддержкой" : "Chat with support",
  });
  await launcher.click();
  const chat = p.frameLocator('iframe[title="Support chat"], iframe[title="Чат поддержки"]');
  await expect(chat.getByTestId("chat-composer")).toBeVisible();
  return { launcher, chat };
}

test.describe("the chat embedded on a store's site", () => {
  test("a customer signed in at the store cancels 3004 inside the iframe and sees the outcome", async ({
    page: p,
    anna,
  }) => {
    const { launcher, chat } = await openShop(p, anna);
    await expect(launcher).toHaveAttribute("aria-expanded", "true");
    const order = anna.order("3004");
    await chat.getByTestId("chat-composer").fill(`I ordered it by mistake, please cancel ${order}`);
    await chat.getByTestId("chat-send").click();
    const card = chat.getByTestId("confirm-card").last();
    await expect(card.getByRole("heading")).toHaveText(
      `Confirm the cancellation of order ${order}`,
    );
    await card.getByTestId("confirm-button").click();
    await expect(card.getByTestId("confirm-outcome")).toHaveText(
      new RegExp(`^Order ${order} is cancelled\\. Refund of €45\\.00: (processing|refunded)`),
    );
    // Escape in the frame closes the panel and gives focus back to the launcher.
    await chat.getByTestId("chat-composer").press("Escape");
    await expect(launcher).toHaveAttribute("aria-expanded", "false");
    await expect(launcher).toBeFocused();
  });

  test("a second store customer's token never shows the first one's orders", async ({
    page: p,
    anna,
    boris,
  }) => {
    const { chat } = await openShop(p, boris);
    const annas = anna.order("8041");
    await chat.getByTestId("chat-composer").fill(`Where is order ${annas}?`);
    await chat.getByTestId("chat-send").click();
    const answer = chat.getByTestId("message-assistant").last();
    await expect(answer).toContainText("I couldn't find");
    await expect(answer).toContainText(annas);
    await expect(answer).not.toContainText("In transit");
  });

  test("the open widget passes axe, and works at 375 px in Russian", async ({
    page: p,
    boris,
  }, testInfo) => {
    await p.setViewportSize({ width: 375, height: 740 });
    const { chat } = await openShop(p, boris, "ru");
    await expect(chat.getByTestId("chat-composer")).toBeInViewport();
    await expectNoSeriousA11yViolations(p, { testInfo, name: "embedded-widget" });
  });

  test("a visitor without a token gets the return policy, and is told to sign in at the store for an order", async ({
    page: p,
  }) => {
    await p.goto(`${storeOrigin}/guest`);
    await p.getByRole("button", { name: "Chat with support" }).click();
    const chat = p.frameLocator('iframe[title="Support chat"]');
    await expect(chat.getByTestId("embed-status")).toHaveText(
      "Sign in at the store to ask about your orders.",
    );
    // The box offers what a visitor can do: no orders, no /confirm or /cancel (no card comes).
    await expect(chat.getByTestId("chat-composer")).toHaveAttribute(
      "placeholder",
      "Ask about our return policy…",
    );
    await expect(chat.getByTestId("composer-hint")).toHaveText("Commands: /new, /help");
    await chat.getByTestId("chat-composer").fill("What is your return policy?");
    await chat.getByTestId("chat-send").click();
    const policy = chat.getByTestId("message-assistant").last();
    await expect(policy).toContainText("30 days");
    // Not "tell me the order number", which a visitor can't act on: where they can.
    await expect(policy).toContainText("To return something, sign in at the store");
    await expect(policy).not.toContainText("tell me the order number");
    await chat.getByTestId("chat-composer").fill("Please cancel order 3004");
    await chat.getByTestId("chat-send").click();
    const answer = chat.getByTestId("message-assistant").last();
    await expect(answer).toContainText("please sign in at the store");
    await expect(chat.getByTestId("confirm-card")).toHaveCount(0);
  });

  test("a visitor verifies guest order 5502 with the code from the mail and returns an item from it", async ({
    page: p,
  }) => {
    await p.goto(`${storeOrigin}/guest`);
    await p.getByRole("button", { name: "Chat with support" }).click();
    const chat = p.frameLocator('iframe[title="Support chat"]');
    const form = chat.getByTestId("guest-verify");
    // A click before React has hydrated the frame opens nothing (seen once): click until it does.
    await expect(async () => {
      await form.getByTestId("guest-verify-open").click();
      await expect(form.getByTestId("guest-order-id")).toBeVisible({ timeout: 1000 });
    }).toPass();
    await form.getByTestId("guest-order-id").fill("5502");
    await form.getByTestId("guest-email").fill("  Lena@Example.org ");
    const since = Date.now() - 1000;
    await form.getByTestId("guest-send").click();
    await expect(form.getByTestId("guest-message")).toHaveText(
      "If this order was placed with this e-mail, we have sent a code to it. It is valid for 10 minutes.",
    );
    await form.getByTestId("guest-code").fill(await guestCodeFromMail("5502", since));
    await form.getByTestId("guest-confirm").click();
    await expect(form.getByTestId("guest-verified")).toContainText("order 5502");
    await chat
      .getByTestId("chat-composer")
      .fill("I want to return just the tea towel from 5502, it arrived damaged");
    await chat.getByTestId("chat-send").click();
    const card = chat.getByTestId("confirm-card").last();
    await expect(card.getByTestId("confirm-order")).toContainText("5502");
    await card.getByTestId("confirm-button").click();
    await expect(card.getByTestId("confirm-outcome")).toContainText("Return request created");
  });

  test("/new inside the frame starts a new chat in the frame", async ({ page: p, anna }) => {
    const { chat } = await openShop(p, anna);
    await chat.getByTestId("chat-composer").fill(`Where is order ${anna.order("8041")}?`);
    await chat.getByTestId("chat-send").click();
    await expect(chat.getByTestId("message-assistant").last()).toContainText(anna.order("8041"));
    await chat.getByTestId("chat-composer").fill("/new");
    await chat.getByTestId("chat-send").click();
    // Still the compact chat, in the frame, on a chat of its own: the earlier messages are gone.
    await expect(chat.getByTestId("message-assistant")).toHaveCount(0);
    await expect(chat.getByTestId("chat-composer")).toBeVisible();
    const frame = p.frames().find((f) => f.url().includes("/embed/chat"));
    expect(frame?.url()).toMatch(/\/embed\/chat\?chat=/);
  });

  test("the launcher by keyboard: focus moves into the panel, Escape in the page and the close button bring it back", async ({
    page: p,
    anna,
  }) => {
    const { launcher, chat } = await openShop(p, anna);
    const frame = p.locator('iframe[title="Support chat"]');
    await expect(frame).toBeFocused();
    // Escape on the store's page (outside the frame) closes too.
    await p.locator("h1").click();
    await p.keyboard.press("Escape");
    await expect(launcher).toHaveAttribute("aria-expanded", "false");
    await expect(launcher).toBeFocused();
    await p.keyboard.press("Enter");
    await expect(launcher).toHaveAttribute("aria-expanded", "true");
    await expect(frame).toBeFocused();
    await expect(chat.getByTestId("chat-composer")).toBeVisible();
    await p.getByRole("button", { name: "Close the chat" }).click();
    await expect(launcher).toHaveAttribute("aria-expanded", "false");
    await expect(launcher).toBeFocused();
  });

  test("a message from another origin is ignored on both sides", async ({ page: p, anna }) => {
    const { launcher, chat } = await openShop(p, anna);
    // Another site's frame on the store's page posts the protocol's own messages: "close" and
    // "signed-out" to the page, "shutdown" to our frame.
    await p.evaluate((src) => {
      const f = document.createElement("iframe");
      f.title = "another site";
      f.src = src;
      document.body.appendChild(f);
    }, `http://localhost:${elsewherePort}/blank`);
    const other = await (await p
      .locator('iframe[title="another site"]')
      .elementHandle())!.contentFrame();
    await expect.poll(() => other?.url()).toContain("/blank");
    await other!.evaluate(() => {
      const msg = (type: string) => ({ source: "returns-desk", type });
      window.parent.postMessage(msg("close"), "*");
      window.parent.postMessage(msg("signed-out"), "*");
      for (let i = 0; i < window.parent.frames.length; i++)
        window.parent.frames[i]!.postMessage(msg("shutdown"), "*");
    });
    // The page kept its panel, and the frame its session: the chat still answers.
    await expect(launcher).toHaveAttribute("aria-expanded", "true");
    await chat.getByTestId("chat-composer").fill(`Where is order ${anna.order("8041")}?`);
    await chat.getByTestId("chat-send").click();
    await expect(chat.getByTestId("message-assistant").last()).toContainText("on its way");
  });

  test("ReturnsDesk.shutdown() signs the frame out and removes the widget", async ({
    page: p,
    anna,
  }) => {
    const { launcher } = await openShop(p, anna);
    // A second tab of the same store: /embed/chat framed there shares the partitioned session.
    const probe = await p.context().newPage();
    await probe.goto(`${storeOrigin}/frame?src=${encodeURIComponent(`${appSiteURL}/embed/chat`)}`);
    const framed = probe.frameLocator('iframe[title="framed"]');
    await expect(framed.getByTestId("chat-composer")).toBeVisible();
    await p.evaluate(() =>
      (window as unknown as { ReturnsDesk: { shutdown(): void } }).ReturnsDesk.shutdown(),
    );
    await expect(launcher).toHaveCount(0);
    // The session is gone: the chat page sends the frame back to /embed, which waits.
    await probe.reload();
    await expect(framed.getByTestId("embed-status")).toBeVisible();
    await expect(framed.getByTestId("chat-composer")).toHaveCount(0);
  });

  test("the chat may not be framed from an origin that is not allowed, nor any other page at all", async ({
    page: p,
  }) => {
    // The allowed store may frame /embed, so the check below is the origin's doing.
    await p.goto(`${storeOrigin}/frame?src=${encodeURIComponent(`${appSiteURL}/embed`)}`);
    await expect(
      p.frameLocator('iframe[title="framed"]').getByTestId("embed-status"),
    ).toBeVisible();
    for (const [origin, path] of [
      [`http://localhost:${elsewherePort}`, "/embed"],
      [storeOrigin, "/sign-in"],
    ] as const) {
      await p.goto(`${origin}/frame?src=${encodeURIComponent(`${appSiteURL}${path}`)}`);
      const frame = await (await p
        .locator('iframe[title="framed"]')
        .elementHandle())!.contentFrame();
      await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
    }
  });
});
