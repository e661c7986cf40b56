/**
 * change_delivery_address's pure data: its name, its triage category, and its catalogue texts
 * (one file per language). No server modules: the message catalogues, the triage schema and the
 * browser read it (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "change_delivery_address",
  /** The staff triage category of a chat in which this tool acted, and what it means to the triage model. */
  triage: {
    category: "address_change",
    hint: "wants an order that has not shipped sent to another address",
  },
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: {
    en: "change the delivery address of an order that hasn't shipped",
    ru: "сменить адрес доставки ещё не отправленного заказа",
  },
  texts: { en, ru },
} as const satisfies ToolMeta;
