import { describe, expect, it } from "vitest";
import { parseCommand } from "@/lib/chat-client/commands";

describe("parseCommand", () => {
  it("reads the console's commands, case and spaces aside", () => {
    expect(parseCommand("/confirm")).toEqual({ kind: "command", name: "confirm", arg: null });
    expect(parseCommand("  /CANCEL ")).toEqual({ kind: "command", name: "cancel", arg: null });
    expect(parseCommand("/analyze  abc-123 ")).toEqual({
      kind: "command",
      name: "analyze",
      arg: "abc-123",
    });
    for (const name of ["new", "help", "exit"])
      expect(parseCommand(`/${name}`)).toMatchObject({ kind: "command", name });
  });

  it("keeps an unknown /word away from the model too", () => {
    expect(parseCommand("/confirmm")).toEqual({ kind: "unknown", word: "/confirmm" });
  });

  it("leaves ordinary text, even with slashes, to be sent", () => {
    for (const text of ["Where is order 8041?", "1/2 of the box", "/ 2 kg", "//", "and/or"])
      expect(parseCommand(text)).toBeNull();
  });
});
