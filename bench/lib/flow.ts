/**
 * One simulated customer, start to finish, each request timed as its step: sign in, open a
 * chat, ask where an order is, ask for its return, then confirm or cancel the card. A step
 * counts as an error unless the answer is what a working app gives (status and content).
 */
import { type Chunk, HttpCustomer, parseUiStream } from "./client";
import type { Recorder } from "./stats";

export const STEPS = [
  "sign in",
  "new chat",
  "turn: order status",
  "turn: return proposal",
  "confirm",
  "cancel",
] as const;

export type TurnShape = { bytes: number; events: number };

/** One chat turn: the POST and its whole UI message stream, parsed. */
export async function turn(c: HttpCustomer, chatId: string, text: string) {
  const res = await c.fetch(`/api/chats/${chatId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  const body = await res.text();
  const chunks: Chunk[] = res.status === 200 ? parseUiStream(body) : [];
  return { status: res.status, body, chunks };
}

export async function customerFlow(
  base: string,
  rec: Recorder,
  shapes: TurnShape[],
  who: { email: string; orderId: string },
  decision: "confirm" | "cancel",
): Promise<void> {
  const c = await rec.time("sign in", async () => ({
    ok: true,
    value: await HttpCustomer.signIn(base, who.email),
  }));
  if (!c) return;
  const chatId = await rec.time("new chat", async () => ({ ok: true, value: await c.newChat() }));
  if (!chatId) return;

  await rec.time("turn: order status", async () => {
    const t = await turn(c, chatId, `Where is my order ${who.orderId}?`);
    shapes.push({ bytes: t.body.length, events: t.chunks.length });
    const answered = t.chunks.some(
      (k) => k.type === "tool-output-available" && JSON.stringify(k).includes(who.orderId),
    );
    return {
      ok: answered,
      value: null,
      bytes: t.body.length,
      why: `${t.status} ${t.body.slice(0, 200)}`,
    };
  });

  const actionId = await rec.time("turn: return proposal", async () => {
    const t = await turn(
      c,
      chatId,
      `Create a return request for order ${who.orderId}. The item arrived damaged.`,
    );
    shapes.push({ bytes: t.body.length, events: t.chunks.length });
    const card = t.chunks.find((k) => k.type === "data-pending-action");
    const id = (card?.data as { id?: string } | undefined)?.id;
    return {
      ok: !!id,
      value: id,
      bytes: t.body.length,
      why: `${t.status} ${t.body.slice(0, 200)}`,
    };
  });
  if (!actionId) return;

  await rec.time(decision, async () => {
    const res = await c.decide(actionId, decision);
    const body = (await res.json()) as { action?: { status: string } };
    const want = decision === "confirm" ? "executed" : "cancelled";
    return {
      ok: res.status === 200 && body.action?.status === want,
      value: null,
      why: `${res.status} ${JSON.stringify(body).slice(0, 200)}`,
    };
  });
}
