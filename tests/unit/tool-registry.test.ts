/**
 * The allowlist as the chat turn reads it: which tools a signed-out visitor's model is offered
 * (only a read tool that says so, never a write tool, whatever it claims), a registry that
 * refuses two tools of one name, and the tools' catalogue texts, which answer only for a
 * registered tool's name.
 */
import { describe, expect, it } from "vitest";
import { cancelOrder } from "@/lib/tools/cancel-order";
import { toolTranslator } from "@/lib/tools/catalogue";
import { getOrderStatus } from "@/lib/tools/get-order-status";
import { createRegistry, TOOLS, toolDescriptors } from "@/lib/tools/registry";
import type { AnyTool } from "@/lib/tools/types";

describe("what each tool is offered as", () => {
  it("only get_return_policy is offered to a visitor; every tool says whether it writes", () => {
    expect(
      toolDescriptors().map(({ name, access, visitors }) => ({ name, access, visitors })),
    ).toEqual([
      { name: "get_order_status", access: "read", visitors: false },
      { name: "get_return_policy", access: "read", visitors: true },
      { name: "create_return_request", access: "write", visitors: false },
      { name: "cancel_order", access: "write", visitors: false },
      { name: "change_delivery_address", access: "write", visitors: false },
      { name: "exchange_items", access: "write", visitors: false },
    ]);
  });

  it("a write tool that claims visitors is still not offered to one", () => {
    const claims = { ...cancelOrder, visitors: true } as unknown as AnyTool;
    expect(toolDescriptors(createRegistry([claims]))).toEqual([
      expect.objectContaining({ name: "cancel_order", access: "write", visitors: false }),
    ]);
  });

  it("a caller that edits a descriptor's schema does not change the next turn's", () => {
    const first = toolDescriptors();
    (first[0]!.inputJsonSchema as Record<string, unknown>).type = "string";
    expect(toolDescriptors()[0]!.inputJsonSchema).toMatchObject({ type: "object" });
  });
});

describe("the registry", () => {
  it("refuses two tools of one name", () => {
    expect(() => createRegistry([getOrderStatus, getOrderStatus])).toThrow(
      "duplicate tool get_order_status",
    );
  });

  it("lists every registered tool under its name", () => {
    expect([...createRegistry(TOOLS).keys()]).toEqual(TOOLS.map((t) => t.name));
  });
});

describe("a tool's catalogue texts", () => {
  it("answer for a registered tool in each language", () => {
    expect(toolTranslator("cancel_order", "en")?.("warning")).toBe(
      "A cancelled order cannot be reopened.",
    );
    expect(toolTranslator("cancel_order", "ru")?.("rows.order")).toBe("Заказ");
  });

  it("are none for a name that is no tool, prototype names included", () => {
    for (const name of ["no_such_tool", "constructor", "__proto__"]) {
      expect(toolTranslator(name, "en")).toBeNull();
    }
  });
});
