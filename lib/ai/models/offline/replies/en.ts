import { own } from "@/lib/own";
import { alternatives, day, items, plusDays } from "@/lib/text/format";
import type { OrderFacts } from "../facts";
import type { Replies } from "./types";

function statusSentence(o: OrderFacts): string {
  const what = o.items.length ? ` (${items(o.items)})` : "";
  const eta = o.estimatedDeliveryAt ? `, expected on ${day(o.estimatedDeliveryAt, "en")}` : "";
  const shipped = o.shippedAt ? ` since ${day(o.shippedAt, "en")}` : "";
  const byStatus: Record<string, string> = {
    processing: `is being prepared${eta}.`,
    shipped: `has been shipped${o.shippedAt ? ` on ${day(o.shippedAt, "en")}` : ""}${eta}.`,
    in_transit: `${o.shippedAt ? "has been" : "is"} on its way${shipped}${eta}.`,
    delivered: `was delivered${o.deliveredAt ? ` on ${day(o.deliveredAt, "en")}` : ""}.`,
    cancelled: "was cancelled.",
  };
  return `Order ${o.orderId}${what} ${own(byStatus, o.status) ?? `has the status "${o.status}".`}`;
}

export const en: Replies = {
  greeting: "Hello! I can check your orders and help with returns. What can I do for you?",
  thanks: "You're welcome! Is there anything else I can help with?",
  farewell: "Goodbye, and have a nice day!",
  capabilities: (can) =>
    `I can ${can}. Anything that changes an order I prepare for you to confirm first. Just tell me the order number.`,
  fallback: (can) => `I'm not sure I understood. I can ${can}. What would you like to do?`,
  denied: "All right, I won't do anything. Is there anything else I can help with?",
  affirmedNothing: "Okay! What can I help you with: an order's status or a return?",

  forbidden:
    "Sorry, I can't do that. I can only help with your own orders: their status, the return policy and return requests.",
  unsupported: (can) =>
    `Sorry, I can't do that in this chat. I can ${can}. A proposal that you haven't confirmed yet can be stopped with Cancel on its card.`,
  signInAtStore:
    "I can only see your orders once you're signed in: please sign in at the store and open this chat again. Meanwhile I can explain our return policy. Ordered without an account? Use “Verify an order” below the chat: with the order's number and the e-mail it was placed with, we send you a code.",
  visitorHowToReturn:
    "To return something, sign in at the store and open this chat again: then I can prepare a return request for you to confirm.",
  noTools: "Sorry, I can't look that up right now. Please try again in a moment.",

  askOrderForStatus: "Which order should I check? Please send me its four-digit number.",
  malformedNumber: (digits) =>
    `Order numbers have four digits, and ${digits} doesn't look like one. Could you check the number?`,
  orderNamed: (id) => `order ${id}`,
  thatOrder: "that order",

  order: (o) => {
    const ret = o.returnRequest
      ? ` It already has a return request (${o.returnRequest.requestId}).`
      : "";
    return `${statusSentence(o)}${ret}`;
  },
  orderReturnability: (o, windowDays) => {
    if (o.returnRequest) return "";
    if (o.status === "cancelled") return "Since it was cancelled, there is nothing to return.";
    if (o.status !== "delivered" || !o.deliveredAt)
      return "It hasn't been delivered yet, so it can't be returned yet.";
    if (!windowDays) return "";
    return `Returns are accepted within ${windowDays} days of delivery, so the window for this order runs until ${day(plusDays(o.deliveredAt, windowDays), "en")}.`;
  },
  policy: (p) => {
    const reasons = p.acceptedReasons.length
      ? ` for these reasons: ${alternatives(p.acceptedReasons, "en")}`
      : "";
    const refund = p.refund ? ` ${p.refund}` : "";
    const not = p.notReturnable.length ? ` Not returnable: ${p.notReturnable.join("; ")}.` : "";
    return `You can return a delivered order within ${p.windowDays} days of delivery${reasons}.${refund}${not}`;
  },
  proposed: (id) =>
    `I've prepared it${id ? ` for order ${id}` : ""}. Please check the details on the card and press Confirm if they are right; nothing happens until you do.`,
  businessError: (code, id) => {
    const order = id ? `order ${id}` : "that order";
    const known: Record<string, string> = {
      order_not_found: `I couldn't find ${order} in your account. Could you check the number?`,
      store_unreachable: `I can't reach the store right now, so I couldn't check ${order}. Please try again in a few minutes.`,
      invalid_arguments:
        "Sorry, I couldn't process that request. Could you tell me the order number and the reason again?",
      unknown_tool: "Sorry, I can't do that.",
    };
    return own(known, code) ?? en.toolFailed;
  },
  toolFailed:
    "Sorry, something went wrong on my side and I couldn't check that. Please try again in a moment.",
};

function _cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
