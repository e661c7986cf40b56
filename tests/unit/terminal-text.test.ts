/**
 * What the terminal chat prints of the server's text: no escape sequence or
 * control character a model put in its answer reaches the terminal; the text itself does.
 */
import { describe, expect, it } from "vitest";
import { terminalText } from "@/cli/chat/terminal";

describe("terminalText", () => {
  it.each([
    ["a colour", "\u001b[31mred\u001b[0m text", "red text"],
    ["clear screen and home", "\u001b[2J\u001b[Hhello", "hello"],
    ["cursor up and erase line (rewrites what was printed)", "ok\u001b[1A\u001b[2Kfake", "okfake"],
    ["a window title (OSC ending in BEL)", "\u001b]0;pwned\u0007hi", "hi"],
    [
      "a hyperlink (OSC 8, ending in ST)",
      "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\",
      "click",
    ],
    ["a C1 CSI", "\u009b31mred", "red"],
    ["a lone ESC", "a\u001bb", "ab"],
    ["NUL, BEL, backspace, carriage return", "pa\u0000y\u0007 n\bow\r", "pay now"],
    ["DEL and C1 controls", "x\u007f\u0085y", "xy"],
  ])("removes %s", (_name, input, printed) => {
    expect(terminalText(input)).toBe(printed);
  });

  it("keeps newlines, tabs and any language", () => {
    const text = "Заказ 8041:\n\tв пути 🚚 — ok";
    expect(terminalText(text)).toBe(text);
  });
});
