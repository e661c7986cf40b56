import { expect, type Page } from "@playwright/test";

/** Page object for /sign-in. */
export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/sign-in");
  }

  async signInWith(email: string, password: string) {
    await this.page.getByTestId("sign-in-email").fill(email);
    await this.page.getByTestId("sign-in-password").fill(password);
    await this.page.getByTestId("sign-in-submit").click();
  }

  /** One-click demo account: "anna" | "boris" | "staff". */
  async demo(who: "anna" | "boris" | "staff") {
    await this.goto();
    await this.page.getByTestId(`demo-${who}`).click();
    await expect(this.page.getByTestId("current-user")).toBeVisible();
  }
}
