/**
 * A customer over real HTTP, as a non-browser API client would be: sign in for a session
 * cookie, then call the API with it. Used by the load benchmark and the system tests. Sign-in
 * and new chats go through the typed client (lib/api-client); turns and decisions stay raw,
 * because the benchmark times the bytes and the hostile suite checks exact answers.
 */
import { type ApiClient, createApiClient } from "@/lib/api-client";

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
    readonly api: ApiClient,
    readonly email: string,
  ) {}

  /** The session cookie, for requests made by hand (hostile cases). */
  get cookie(): string {
    return this.api.cookieHeader;
  }

  static async signIn(base: string, email: string, password = DEMO_PASSWORD) {
    const api = createApiClient({ baseUrl: base });
    const r = await api.signIn(email, password);
    if (!r.ok) throw new Error(`sign-in ${email}: ${r.status} ${r.error?.message ?? ""}`);
    return new HttpCustomer(base, api, email);
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has("cookie")) headers.set("cookie", this.cookie);
    // What the app's own pages send with every POST.
    if (init.method === "POST" && !headers.has("origin")) headers.set("origin", this.base);
    return fetch(`${this.base}${path}`, { ...init, headers });
  }

  async newChat(): Promise<string> {
    const r = await this.api.createChat();
    if (!r.ok) throw new Error(`new chat: ${r.status} ${r.error?.message ?? ""}`);
    return r.data.id;
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
