// next-intl's type registration: every t("…") key and named format is checked against the
// English catalogue with the tools' texts (messages/ru.json must have the same shape: lib/i18n/messages.ts).
import type { Locale } from "@/db/constants";
import type { formats } from "./formats";
import type { Messages } from "./messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
    Formats: typeof formats;
  }
}
