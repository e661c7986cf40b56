/**
 * Which lines of an order, and how many of each, a write acts on: the one step create_return_request
 * and exchange_items share (a function they call, not a copy in each). The customer names a line
 * by its id (get_order_status's `lineId`) or by words of its name ("the socks"); a quantity left
 * out means all that is left of the line. Everything the customer or the model could get wrong is
 * a business error with a code the assistant explains in the customer's language, and nothing is
 * stored: a line of another order, words that fit no line or several, a quantity that is not a
 * whole number above zero, more than was bought or than is left after an earlier return or
 * exchange. Prices never come from the arguments: the line's own price is the only one.
 */
import { z } from "zod";
import type { OrderItem } from "@/db/queries/orders";
import { ToolBusinessError } from "./types";

/** One line the customer names, and how many of it (absent: all that is left of it). */
export const LINE_CHOICE = z.strictObject({
  line: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("the line's lineId from get_order_status, or the words the customer used for it"),
  // Any number: zero, negative and fractional quantities reach the policy, which explains them.
  quantity: z.number().optional(),
});

/**
 * The lines: "all" for every line of the order (the customer asked for the whole order, "both",
 * "all of it"), or the named ones. Absent is "all": what a request naming only the order asks
 * for, and what every client sent before lines could be named. A choice without a `line` ("one
 * item", "two of them") is the order's only line; with several, the assistant asks which,
 * listing them (which_items).
 */
export const ITEMS = z.union([z.literal("all"), z.array(LINE_CHOICE).min(1).max(20)]).optional();
export type ItemsChoice = z.output<typeof ITEMS>;

/** A line chosen, with the units asked for. */
export type ChosenLine = { item: OrderItem; quantity: number };

/** Units of the line not yet returned or exchanged. */
export const remaining = (i: OrderItem) => i.quantity - i.returnedQuantity - i.exchangedQuantity;

/** A line as the model reads it in a refusal: its id, how many, its name and variant. */
export function lineLabel(i: OrderItem): string {
  const options = i.variant ? Object.entries(i.variant.options) : [];
  const variant = options.length ? ` (${options.map(([k, v]) => `${k} ${v}`).join(", ")})` : "";
  return `line ${i.lineId}: ${i.quantity} × ${i.name}${variant}, ${(i.unitPriceMinor / 100).toFixed(2)} each${i.finalSale ? ", final sale" : ""}`;
}

const listing = (items: readonly OrderItem[]) => items.map(lineLabel).join("; ");

// Words that say nothing about which line ("just the", "pair of", "from order").
const FILLER = new Set(
  "the a an my of from order item items one ones just only this that these those pair pairs piece pieces all both please".split(
    " ",
  ),
);
const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !FILLER.has(w) && !/^\d{4}$/.test(w));

/** How well words fit a name: the count of words that are, or begin, one of its words. */
function nameFit(named: string[], name: string): number {
  const own = words(name);
  return named.filter((w) =>
    own.some(
      (o) => o === w || (w.length >= 3 && o.startsWith(w)) || (o.length >= 3 && w.startsWith(o)),
    ),
  ).length;
}

const lineFit = (named: string[], item: OrderItem) => nameFit(named, item.name);

/**
 * Whether a customer's words for a line could name an item called `name`, by the same fit the
 * tool chooses lines with: for the offline model, which reads the items of orders it looked up.
 */
export const wordsFitName = (line: string, name: string) => nameFit(words(line), name) > 0;

function findLine(order: { id: string; items: readonly OrderItem[] }, line: string): OrderItem {
  const byId = order.items.find((i) => i.lineId === line);
  if (byId) return byId;
  const named = words(line);
  const scored = order.items.map((item) => ({ item, score: lineFit(named, item) }));
  const best = Math.max(0, ...scored.map((s) => s.score));
  const fits = scored.filter((s) => s.score === best && best > 0);
  if (fits.length === 1) return fits[0]!.item;
  if (fits.length > 1) {
    throw new ToolBusinessError(
      "item_unclear",
      `"${line}" could mean several lines of order ${order.id}: ${listing(fits.map((f) => f.item))}. Ask the customer which one.`,
    );
  }
  throw new ToolBusinessError(
    "item_not_in_order",
    `Order ${order.id} has no line "${line}". Its lines: ${listing(order.items)}.`,
  );
}

/**
 * The line a customer's words (or a lineId) name, when exactly one does: for a business key's
 * lookup, which must not refuse (absent words: the order's only line).
 */
export function namedLine(
  order: { id: string; items: readonly OrderItem[] },
  line: string | undefined,
): OrderItem | null {
  try {
    return line === undefined
      ? order.items.length === 1
        ? order.items[0]!
        : null
      : findLine(order, line);
  } catch (err) {
    if (err instanceof ToolBusinessError) return null;
    throw err;
  }
}

/**
 * The lines and units of an order the customer asked for, or a business error saying what is
 * wrong. `action` words the messages ("return", "exchange").
 */
export function chooseLines(
  order: { id: string; items: readonly OrderItem[] },
  items: ItemsChoice,
  action: "return" | "exchange",
): ChosenLine[] {
  if (order.items.length === 0) {
    throw new ToolBusinessError("item_not_in_order", `Order ${order.id} has no items.`);
  }
  const asked =
    items === "all" || items === undefined
      ? allLines(order.items).map((item) => ({ item, quantity: undefined as number | undefined }))
      : items.map((c) => ({
          item: c.line === undefined ? onlyLine(order, action)[0]!.item : findLine(order, c.line),
          quantity: c.quantity,
        }));
  if (asked.length === 0) {
    throw new ToolBusinessError(
      "already_returned",
      `Every item of order ${order.id} was already returned or exchanged.`,
    );
  }
  // A line named twice is asked for once, with the units of both mentions.
  const chosen = new Map<string, ChosenLine>();
  for (const { item, quantity } of asked) {
    const units = quantity ?? remaining(item);
    if (!Number.isInteger(units) || units <= 0) {
      throw new ToolBusinessError(
        "invalid_quantity",
        `The quantity to ${action} must be a whole number of at least 1 (got ${quantity}) for ${item.name}.`,
      );
    }
    const before = chosen.get(item.lineId);
    chosen.set(item.lineId, { item, quantity: (before?.quantity ?? 0) + units });
  }
  for (const { item, quantity } of chosen.values()) checkUnits(order.id, item, quantity, action);
  return [...chosen.values()];
}

/**
 * "All of it": every line with units left, but not the final-sale ones beside others (the card
 * lists what is included); an order of final-sale lines only is refused for them.
 */
function allLines(items: readonly OrderItem[]) {
  const left = items.filter((i) => remaining(i) > 0);
  const returnable = left.filter((i) => !i.finalSale);
  return returnable.length > 0 ? returnable : left;
}

function onlyLine(order: { id: string; items: readonly OrderItem[] }, action: string) {
  if (order.items.length > 1) {
    throw new ToolBusinessError(
      "which_items",
      `Order ${order.id} has several items; ask the customer which ones to ${action} and how many, listing them: ${listing(order.items)}.`,
    );
  }
  return [{ item: order.items[0]!, quantity: undefined as number | undefined }];
}

function checkUnits(orderId: string, item: OrderItem, units: number, action: string) {
  if (units > item.quantity) {
    throw new ToolBusinessError(
      "quantity_above_bought",
      `Order ${orderId} has only ${item.quantity} × ${item.name}, so ${units} cannot be ${action === "return" ? "returned" : "exchanged"}.`,
    );
  }
  const left = remaining(item);
  if (left === 0) {
    throw new ToolBusinessError(
      item.exchangedQuantity > 0 ? "already_exchanged" : "already_returned",
      `The ${item.name} of order ${orderId} ${item.exchangedQuantity > 0 ? "was already exchanged" : "was already returned"}.`,
    );
  }
  if (units > left) {
    throw new ToolBusinessError(
      "quantity_above_remaining",
      `Only ${left} of the ${item.quantity} × ${item.name} of order ${orderId} ${left === 1 ? "is" : "are"} left to ${action}: the rest was already returned or exchanged.`,
    );
  }
  if (item.finalSale) {
    throw new ToolBusinessError(
      "final_sale",
      `The ${item.name} of order ${orderId} was sold as final sale: it cannot be returned or exchanged.`,
    );
  }
}
