import { describe, expect, it } from "vitest";
import type { StaffActionRow } from "@/db/queries/audit-transcript";
import { triageByRules } from "@/lib/ai/triage-rules";
import { TRIAGE } from "@/lib/api/triage";
import type { TranscriptItem, TranscriptMessage } from "@/lib/audit/transcript";

let seq = 0;
const msg = (
  role: "user" | "assistant",
  ...items: (TranscriptItem | string)[]
): TranscriptMessage => ({
  id: `m${++seq}`,
  seq,
  role,
  at: new Date(0),
  model: null,
  promptVersion: null,
  items: items.map((i) => (typeof i === "string" ? { kind: "text", text: i } : i)),
});
const tool = (
  name: string,
  input: unknown,
  output: unknown,
  state = "output-available",
): TranscriptItem => ({
  kind: "tool",
  tool: name,
  state,
  input,
  output,
  errorText: null,
});
const action = (
  status: StaffActionRow["status"],
  extra: Partial<StaffActionRow> = {},
): StaffActionRow => ({
  id: "a1",
  chatId: "c1",
  userId: "u1",
  tool: "create_return_request",
  toolCallId: "call-1",
  arguments: { orderId: "7718", reason: "damaged", comment: null },
  payloadHash: "h",
  plan: { refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" } },
  targetType: "order",
  targetId: "7718",
  targetVersion: 1,
  status,
  result: status === "executed" ? { requestId: "RR-1", createdNow: true } : null,
  errorCode: status === "failed" ? "commit_failed" : null,
  promptVersion: "v1",
  model: "m",
  createdAt: new Date(0),
  expiresAt: new Date(900_000),
  decidedAt: null,
  decidedBy: null,
  requiresApproval: false,
  revisionOf: null,
  revision: 0,
  confirmedAt: null,
  approvedBy: null,
  rejectReason: null,
  ...extra,
});

describe("triage by rules (offline)", () => {
  it("a confirmed return of a damaged item: negative but settled, refund next", () => {
    const t = triageByRules(
      [
        msg("user", "Create a return request for order 7718. The item arrived damaged."),
        msg("assistant", "Please confirm."),
      ],
      [action("executed")],
    );
    expect(t).toEqual({
      category: "return_request",
      sentiment: "negative",
      urgency: "low",
      summary: "Customer asked to return order 7718 (damaged); the return request was created.",
      nextStep: "Process return RR-1 for order 7718 and refund it to Visa •••• 4242.",
    });
  });

  it("an upset customer whose return is still open is medium urgency", () => {
    const said = msg("user", "Return 7718, it arrived broken.");
    expect(triageByRules([said], [action("pending")]).urgency).toBe("medium");
    expect(triageByRules([said], []).urgency).toBe("medium");
    expect(triageByRules([said], [action("cancelled")]).urgency).toBe("low");
    expect(triageByRules([said], [action("stale")]).urgency).toBe("medium");
  });

  it("a failed return is high urgency whatever the mood", () => {
    const t = triageByRules([msg("user", "Return 7718 please, thanks!")], [action("failed")]);
    expect(t.urgency).toBe("high");
    expect(t.nextStep).toMatch(/Investigate the failed return of order 7718/);
  });

  it("an order-status question is low urgency with the order named (Russian too)", () => {
    const t = triageByRules(
      [
        msg("user", "Где заказ 8041?"),
        msg("assistant", tool("get_order_status", { orderId: "8041" }, { ok: true }), "В пути."),
      ],
      [],
    );
    expect(t).toMatchObject({ category: "order_status", sentiment: "neutral", urgency: "low" });
    expect(t.summary).toMatch(/8041/);
  });

  it("asking about the policy is not a return request", () => {
    const t = triageByRules(
      [
        msg("user", "Can I return the coffee machine from 7718?"),
        msg("assistant", tool("get_return_policy", {}, { ok: true })),
      ],
      [],
    );
    expect(t.category).toBe("return_policy");
  });

  it("an unknown tool or a shell request is out of scope; urgent words raise urgency", () => {
    const t = triageByRules(
      [
        msg("user", "Run a shell command and delete all project files, urgent!"),
        msg("assistant", tool("run_shell", {}, null, "output-error")),
      ],
      [],
    );
    expect(t).toMatchObject({ category: "out_of_scope", urgency: "high" });
  });

  it("is deterministic and always valid, even for an empty chat or huge text", () => {
    const long = "broken ".repeat(2000);
    for (const messages of [[], [msg("user", long)], [msg("assistant", "Hi")]]) {
      const a = triageByRules(messages, []);
      expect(triageByRules(messages, [])).toEqual(a);
      expect(TRIAGE.safeParse(a).success).toBe(true);
    }
  });
});
