/**
 * get_return_policy's pure data: its name, and its catalogue texts (one file per language).
 * No server modules: the message catalogues and the browser read it
 * (lib/tools/manifests.ts).
 */
import type { ToolMeta } from "../meta-types";
import en from "./en.json";
import ru from "./ru.json";

export const meta = {
  name: "get_return_policy",
  /** Its line in the assistant's help ("I can …"), in each language. */
  help: { en: "explain the return policy", ru: "рассказать об условиях возврата" },
  texts: { en, ru },
} as const satisfies ToolMeta;
