/**
 * The source course's console commands, shared by the terminal chat (scripts/chat.ts) and the
 * browser composer. A command is handled by the client and never sent as a chat message, so it
 * never reaches the model. Their wording is in the catalogues (messages/<lang>.json: `console` for
 * the terminal, `conversation.commands` for the composer).
 */

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
