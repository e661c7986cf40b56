/**
 * create_return_request's pure data: its name, its triage category, and its catalogue texts (one file per language).
 * No server modules: the message catalogues, the triage schema and the browser read it
 * (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "create_return_request",
  /** The staff triage category of a chat in which this tool acted, and what it means to the triage model. */
  triage: { category: "return_request", hint: "wants to return an item" },
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: { en: "prepare a return request", ru: "подготовить заявку на возврат" },
  texts: { en, ru },
} as const satisfies ToolMeta;
