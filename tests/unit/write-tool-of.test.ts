/**
 * A stored action names its tool by name; only a registered write tool may run it. A row naming
 * a read-only tool or an unknown one is corrupt, and nothing may execute it.
 */
import { describe, expect, it } from "vitest";
import { writeToolOf } from "@/lib/actions/dto";

describe("writeToolOf", () => {
  it("answers the registered write tool a row names", () => {
    expect(writeToolOf({ id: "a1", tool: "cancel_order" }).name).toBe("cancel_order");
    expect(writeToolOf({ id: "a2", tool: "create_return_request" }).access).toBe("write");
  });

  it("refuses a read-only tool and an unknown name", () => {
    expect(() => writeToolOf({ id: "a3", tool: "get_order_status" })).toThrow(
      "pending action a3 names get_order_status, which is not a registered write tool",
    );
    expect(() => writeToolOf({ id: "a4", tool: "drop_tables" })).toThrow(/a4 names drop_tables/);
  });
});
