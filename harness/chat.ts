/**
 * A customer's session against the real route handlers: sign in, start chats, send messages,
 * confirm and cancel. Every call goes through the same handlers the browser hits.
 */
import { POST as cancelRoute } from "@/app/api/actions/[id]/cancel/route";
import { POST as confirmRoute } from "@/app/api/actions/[id]/confirm/route";
import { POST as sendRoute } from "@/app/api/chats/[id]/messages/route";
import { GET as getChatRoute } from "@/app/api/chats/[id]/route";
import { POST as createChatRoute, GET as listChatsRoute } from "@/app/api/chats/route";
import { call, signIn } from "./http";
import { readTurn, type TurnResult } from "./stream";

export class Customer {
  private constructor(readonly cookie: string) {}

  static async signIn(email: string): Promise<Customer> {
    return new Customer(await signIn(email));
  }

  /** A session started some other way (the embedded chat's cookie). */
  static withCookie(cookie: string): Customer {
    return new Customer(cookie);
  }

  async newChat(): Promise<string> {
    const res = await call(
      createChatRoute,
      "/api/chats",
      {},
      { cookie: this.cookie, method: "POST" },
    );
    if (res.status !== 201) throw new Error(`create chat: ${res.status} ${await res.text()}`);
    return (await res.json()).chat.id as string;
  }

  listChats(): Promise<Response> {
    return call(listChatsRoute, "/api/chats", {}, { cookie: this.cookie });
  }

  getChat(id: string): Promise<Response> {
    return call(getChatRoute, `/api/chats/${id}`, { id }, { cookie: this.cookie });
  }

  /** Raw response (for refusals). */
  post(chatId: string, body: unknown): Promise<Response> {
    return call(
      sendRoute,
      `/api/chats/${chatId}/messages`,
      { id: chatId },
      { cookie: this.cookie, body },
    );
  }

  async say(chatId: string, text: string): Promise<TurnResult> {
    return readTurn(await this.post(chatId, { text }));
  }

  confirm(actionId: string, body?: unknown): Promise<Response> {
    return call(
      confirmRoute,
      `/api/actions/${actionId}/confirm`,
      { id: actionId },
      {
        cookie: this.cookie,
        method: "POST",
        body,
      },
    );
  }

  cancel(actionId: string): Promise<Response> {
    return call(
      cancelRoute,
      `/api/actions/${actionId}/cancel`,
      { id: actionId },
      {
        cookie: this.cookie,
        method: "POST",
      },
    );
  }
}
