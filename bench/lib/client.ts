/**
 * A customer over real HTTP, as a non-browser API client would be: sign in for a session
 * cookie, then call the API with it. Used by the load benchmark and the system tests.
 */

export const DEMO_PASSWORD = "returns-demo";

export type Chunk = { type: string; [k: string]: unknown };

/** Parses a UI message stream (SSE `data: {...}` lines) into its chunks. */
export function parseUiStream(body: string): Chunk[] {
  const chunks: Chunk[] = [];
  for (const line of body.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const data = line.slice(6).trim();
    if (data === "[DONE]") continue;
    chunks.push(JSON.parse(data) as Chunk);
  }
  return chunks;
}

export type PendingActionPart = { id: string; status: string; arguments: { orderId: string } };

export function pendingActionOf(chunks: Chunk[]): PendingActionPart | null {
  const part = chunks.find((c) => c.type === "data-pending-action");
  return part ? (part.data as PendingActionPart) : null;
}

export class HttpCustomer {
  private constructor(
    readonly base: string,
    readonly cookie: string,
    readonly email: string,
  ) {}

  static async signIn(base: string, email: string, password = DEMO_PASSWORD) {
    const res = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      // Node's fetch sends Sec-Fetch-Mode, so better-auth (rightly) wants the Origin a
      // browser would send for a same-origin POST.
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    await res.arrayBuffer();
    return new HttpCustomer(base, cookie, email);
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has("cookie")) headers.set("cookie", this.cookie);
    // What the app's own pages send with every POST.
    if (init.method === "POST" && !headers.has("origin")) headers.set("origin", this.base);
    return fetch(`${this.base}${path}`, { ...init, headers });
  }

  async newChat(): Promise<string> {
    const res = await this.fetch("/api/chats", { method: "POST" });
    const body = (await res.json()) as { chat?: { id: string } };
    if (res.status !== 201 || !body.chat) throw new Error(`new chat: ${res.status}`);
    return body.chat.id;
  }

  /** One chat turn, read to the end. Throws on anything but a 200 stream. */
  async say(chatId: string, text: string): Promise<Chunk[]> {
    const res = await this.fetch(`/api/chats/${chatId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`say: ${res.status} ${body.slice(0, 300)}`);
    const chunks = parseUiStream(body);
    const error = chunks.find((c) => c.type === "error");
    if (error) throw new Error(`say: stream error ${String(error.errorText)}`);
    return chunks;
  }

  decide(actionId: string, decision: "confirm" | "cancel"): Promise<Response> {
    return this.fetch(`/api/actions/${encodeURIComponent(actionId)}/${decision}`, {
      method: "POST",
    });
  }
}
