/**
 * Sentences the app (not the model) writes into the conversation that belong to no tool: the
 * tool-loop overrun and the model failure. A write tool's confirmation and outcome sentences are
 * its own (describe()). Both languages.
 */
import type { Lang } from "./language";

export function overrunText(lang: Lang): string {
  return lang === "ru"
    ? "Не получилось довести запрос до конца. Пожалуйста, сформулируйте его иначе или попробуйте ещё раз."
    : "I couldn't finish that request. Please rephrase it or try again.";
}

export function modelErrorText(lang: Lang): string {
  return lang === "ru"
    ? "Ассистент сейчас недоступен. Ваше сообщение не сохранено, попробуйте ещё раз."
    : "The assistant is unavailable right now. Your message was not saved; please try again.";
}
