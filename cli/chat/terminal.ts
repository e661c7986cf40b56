/**
 * Text from the server (the model's answer above all) printed on a terminal. A model can answer
 * with escape sequences that move the cursor, clear the screen, retitle the window, recolour what
 * follows or hide text, and a terminal obeys them; so before anything is printed, ANSI/VT
 * sequences are removed (node:util's stripVTControlCharacters) and then every remaining control
 * character (C0, DEL, C1: a lone ESC, BEL, backspace, carriage return) but the newline and tab.
 */
import { stripVTControlCharacters } from "node:util";

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalText(text: string): string {
  return stripVTControlCharacters(text).replace(CONTROL, "");
}
