import { expect, test } from "@playwright/test";
import { SignInPage } from "./pages";

test.describe("foundation", () => {
  test("a visitor is sent to sign in", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole("heading", { name: "Returns Desk" })).toBeVisible();
  });

  test("a wrong password shows a clear error", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signInWith("anna@example.com", "not-the-password");
    await expect(page.getByTestId("sign-in-error")).toHaveText("Wrong email or password.");
  });

  test("Anna sees only her own orders", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signInWith("anna@example.com", "returns-demo");
    await expect(page.getByTestId("order-7718")).toContainText("Barista Pro coffee machine");
    await expect(page.getByTestId("order-7718").getByTestId("order-status")).toHaveText(
      "Delivered",
    );
    await expect(page.getByTestId("order-8041").getByTestId("order-status")).toHaveText(
      "In transit",
    );
    await expect(page.getByTestId("order-4410")).toHaveCount(0);
    await expect(page.getByTestId("order-2255")).toHaveCount(0);
  });

  test("Boris sees only his orders and none of Anna's", async ({ page }) => {
    await new SignInPage(page).demo("boris");
    await expect(page.getByTestId("order-4410")).toBeVisible();
    await expect(page.getByTestId("order-7718")).toHaveCount(0);
    await expect(page.getByTestId("order-8041")).toHaveCount(0);
  });

  test("staff see a link to the audit page and can sign out", async ({ page }) => {
    await new SignInPage(page).demo("staff");
    await expect(page.getByTestId("audit-link")).toBeVisible();
    await page.getByTestId("sign-out").click();
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});
