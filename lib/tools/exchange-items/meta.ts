/**
 * exchange_items' pure data: its name, its triage category, and its catalogue texts (one file per
 * language). No server modules: the message catalogues, the triage schema and the browser read it
 * (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "exchange_items",
  /** The staff triage category of a chat in which this tool acted, and what it means to the triage model. */
  triage: {
    category: "exchange",
    hint: "wants an item in another size or colour instead (before it ships, or after delivery)",
  },
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: {
    en: "exchange an item for another size",
    ru: "обменять товар на другой размер",
  },
  texts: { en, ru },
} as const satisfies ToolMeta;
