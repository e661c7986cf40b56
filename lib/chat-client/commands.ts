/**
 * The source course's console commands, shared by the terminal chat (scripts/chat.ts) and the
 * browser composer. A command is handled by the client and never sent as a chat message, so it
 * never reaches the model. Wording in the customer's language (en/ru), one table each.
 */
import type { Lang } from "@/lib/chat/language";

export type CommandName = "confirm" | "cancel" | "new" | "help" | "analyze" | "exit";

export type ParsedCommand =
  | { kind: "command"; name: CommandName; arg: string | null }
  /** Starts with "/" and one word, but not a command we have: still never sent to the model. */
  | { kind: "unknown"; word: string };

const NAMES: readonly CommandName[] = ["confirm", "cancel", "new", "help", "analyze", "exit"];

/**
 * "/confirm" -> confirm; "/analyze 42" -> analyze with arg "42"; case-insensitive, surrounding
 * spaces ignored. Text that is not "/word..." is a message (null), so "/ 2 kg" or "1/2" still
 * reach the assistant.
 */
export function parseCommand(text: string): ParsedCommand | null {
  const m = /^\/([a-z]+)(?:\s+(.*))?$/i.exec(text.trim());
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  const name = NAMES.find((n) => n === word);
  if (!name) return { kind: "unknown", word: `/${word}` };
  const arg = m[2]?.trim() || null;
  return { kind: "command", name, arg };
}

export type CommandText = {
  help: (where: "terminal" | "browser") => string[];
  hint: string;
  nothingToDecide: string;
  staffOnly: string;
  unknown: (word: string) => string;
  auditStatus: (status: string) => string;
  newChat: (id: string) => string;
  withdrawn: string;
  onlyCommands: string;
  analyzeWhich: string;
  staffChats: string;
  analysis: {
    title: (chatId: string) => string;
    category: string;
    urgency: string;
    sentiment: string;
    summary: string;
    nextStep: string;
  };
  signedInAs: (email: string, role: string) => string;
  chatStarted: (id: string) => string;
  modelFailed: (text: string) => string;
  bye: string;
};

const en: CommandText = {
  help: (where) => [
    "Commands:",
    "  /confirm   confirm the proposed action",
    "  /cancel    cancel the proposed action (nothing is created)",
    "  /new       start a new chat (a pending proposal is withdrawn)",
    ...(where === "terminal"
      ? ["  /analyze   analyse the conversation (staff: /analyze <chat id>)", "  /exit      quit"]
      : []),
    "  /help      this list",
  ],
  hint: "Type a message, or /help for commands.",
  nothingToDecide: "Nothing to decide: no action is waiting for your confirmation in this chat.",
  staffOnly: "/analyze is for support staff only.",
  unknown: (word) => `Unknown command ${word}. Type /help for the list.`,
  auditStatus: (status) => `Audit status: ${status}`,
  newChat: (id) => `New chat started (${id}).`,
  withdrawn: "The proposal that was waiting is withdrawn; nothing was created.",
  onlyCommands: "While a proposal waits, only /confirm, /cancel, /new and /help work here.",
  analyzeWhich: "Which chat? Type /analyze <chat id>.",
  staffChats: "Staff accounts do not chat. Type /analyze <chat id> to analyse a customer's chat.",
  analysis: {
    title: (id) => `Analysis of chat ${id}`,
    category: "Category",
    urgency: "Urgency",
    sentiment: "Sentiment",
    summary: "Summary",
    nextStep: "Next step",
  },
  signedInAs: (email, role) => `Signed in as ${email} (${role}).`,
  chatStarted: (id) => `Chat ${id}. Type /help for commands.`,
  modelFailed: (text) => `The assistant could not answer (nothing was stored): ${text}`,
  bye: "Bye.",
};

const ru: CommandText = {
  help: (where) => [
    "Команды:",
    "  /confirm   подтвердить предложенное действие",
    "  /cancel    отменить предложенное действие (ничего не создаётся)",
    "  /new       новый диалог (ожидающее предложение отзывается)",
    ...(where === "terminal"
      ? ["  /analyze   анализ обращения (сотрудник: /analyze <id чата>)", "  /exit      выход"]
      : []),
    "  /help      этот список",
  ],
  hint: "Напишите сообщение или /help для списка команд.",
  nothingToDecide: "Нечего решать: в этом чате нет действия, ожидающего подтверждения.",
  staffOnly: "Команда /analyze доступна только сотрудникам поддержки.",
  unknown: (word) => `Неизвестная команда ${word}. Введите /help для списка.`,
  auditStatus: (status) => `Статус аудита: ${status}`,
  newChat: (id) => `Начат новый диалог (${id}).`,
  withdrawn: "Ожидавшее предложение отозвано; ничего не создано.",
  onlyCommands:
    "Пока предложение ждёт решения, здесь работают только /confirm, /cancel, /new и /help.",
  analyzeWhich: "Какой чат? Введите /analyze <id чата>.",
  staffChats:
    "Сотрудники не ведут чаты. Введите /analyze <id чата>, чтобы проанализировать чат клиента.",
  analysis: {
    title: (id) => `Анализ чата ${id}`,
    category: "Категория",
    urgency: "Срочность",
    sentiment: "Настроение",
    summary: "Суть",
    nextStep: "Следующий шаг",
  },
  signedInAs: (email, role) => `Вы вошли как ${email} (${role}).`,
  chatStarted: (id) => `Чат ${id}. Введите /help для списка команд.`,
  modelFailed: (text) => `Ассистент не смог ответить (ничего не сохранено): ${text}`,
  bye: "До свидания.",
};

const TABLES: Record<Lang, CommandText> = { en, ru };

export function commandText(lang: Lang = "en"): CommandText {
  return TABLES[lang];
}
