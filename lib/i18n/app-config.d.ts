// next-intl's type registration: every t("…") key and named format is checked against the
// English catalogue (messages/ru.json must have the same shape: lib/i18n/messages.ts).
import type { Locale } from "@/db/constants";
import type en from "@/messages/en.json";
import type { formats } from "./formats";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
    Formats: typeof formats;
  }
}
