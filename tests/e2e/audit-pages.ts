import { type APIRequestContext, expect, type Page, request } from "@playwright/test";

/** Page object for the staff audit pages (/audit, event detail, transcript). */
export class AuditPage {
  constructor(readonly page: Page) {}

  async goto(query = "") {
    await this.page.goto(`/audit${query}`);
    await expect(this.page.getByRole("heading", { name: "Audit", exact: true })).toBeVisible();
  }
  get rows() {
    return this.page.getByTestId("audit-row");
  }
  get chart() {
    return this.page.getByTestId("status-chart");
  }
  get timeline() {
    return this.page.getByTestId("action-timeline");
  }

  /** Fills the filter form and applies it (a plain GET form: the URL carries the filters). */
  async filter(f: { status?: string; customer?: string; tool?: string }) {
    if (f.status) await this.page.getByTestId("filter-status").selectOption(f.status);
    if (f.customer) await this.page.getByTestId("filter-customer").fill(f.customer);
    if (f.tool) await this.page.getByTestId("filter-tool").fill(f.tool);
    await this.page.getByTestId("filter-apply").click();
    await expect(this.page).toHaveURL(/\/audit\?/);
  }
}

/**
 * A customer driving the real chat API from outside the browser: the events the audit shows
 * are made by the app itself, not inserted by the test.
 */
export class ApiCustomer {
  private constructor(
    readonly api: APIRequestContext,
    private readonly origin: string,
  ) {}

  static async signIn(baseURL: string, email: string): Promise<ApiCustomer> {
    const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    const res = await api.post("/api/auth/sign-in/email", {
      data: { email, password: "returns-demo" },
    });
    expect(res.status()).toBe(200);
    return new ApiCustomer(api, baseURL);
  }

  async newChat(): Promise<string> {
    const res = await this.api.post("/api/chats");
    expect(res.status()).toBe(201);
    return (await res.json()).chat.id;
  }

  /** Sends a message, reads the whole stream; returns the proposed action's id, if any. */
  async say(chatId: string, text: string): Promise<string | null> {
    const res = await this.api.post(`/api/chats/${chatId}/messages`, { data: { text } });
    expect(res.status()).toBe(200);
    for (const line of (await res.text()).split("\n")) {
      if (!line.startsWith("data: {")) continue;
      const chunk = JSON.parse(line.slice(6)) as { type: string; id?: string };
      if (chunk.type === "data-pending-action" && chunk.id) return chunk.id;
    }
    return null;
  }

  async cancel(actionId: string) {
    const res = await this.api.post(`/api/actions/${actionId}/cancel`);
    expect(res.status()).toBe(200);
  }

  async confirm(actionId: string) {
    const res = await this.api.post(`/api/actions/${actionId}/confirm`);
    expect(res.status()).toBe(200);
  }

  get baseURL() {
    return this.origin;
  }
}
