/**
 * cancel_order's pure data: its name, its triage category, and its catalogue texts (one file per language).
 * No server modules: the message catalogues, the triage schema and the browser read it
 * (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "cancel_order",
  /** The staff triage category of a chat in which this tool acted, and what it means to the triage model. */
  triage: { category: "order_cancellation", hint: "wants to cancel an order that has not shipped" },
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: { en: "cancel an order that hasn't shipped", ru: "отменить ещё не отправленный заказ" },
  texts: { en, ru },
} as const satisfies ToolMeta;
