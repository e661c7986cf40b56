/**
 * get_order_status's pure data: its name, and its catalogue texts (one file per language).
 * No server modules: the message catalogues and the browser read it
 * (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "get_order_status",
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: { en: "check the status of your orders", ru: "проверить статус ваших заказов" },
  texts: { en, ru },
} as const satisfies ToolMeta;
