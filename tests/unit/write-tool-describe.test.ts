/**
 * Every registered write tool describes itself from its own catalogue text, in both languages,
 * with the same keys in each (a key missing in one language is a failure here, not a raw key on
 * a customer's card). Then what the return tool's card says, word for word.
 */
import { describe, expect, it } from "vitest";
import { describeAction } from "@/lib/actions/describe";
import { messagesFor } from "@/lib/i18n/messages";
import { TOOLS } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";
import { SAMPLES } from "./write-tool-samples";

// The catalogues as the app serves them: messages/*.json plus every tool's own texts.
const en = messagesFor("en");
const ru = messagesFor("ru");

const WRITE_TOOLS = TOOLS.filter(
  (t): t is (typeof TOOLS)[number] & WriteTool => t.access === "write",
);

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe.each(WRITE_TOOLS.map((t) => [t.name, t] as const))("%s describes itself", (name, tool) => {
  it("has the same catalogue keys in English and Russian", () => {
    const tools = (c: { tools: Record<string, unknown> }) => c.tools[name];
    expect(tools(en)).toBeDefined();
    expect(keys(tools(ru)).sort()).toEqual(keys(tools(en)).sort());
  });

  it.each(["en", "ru"] as const)("in %s: every text filled in, no placeholder left", (lang) => {
    const sample = SAMPLES[name];
    expect(sample, `lib/tools/<folder>/test-table.ts has no sample for ${name}`).toBeDefined();
    for (const result of [null, sample!.result, { ...sample!.result, createdNow: false }]) {
      const d = describeAction(tool, { ...sample!, result }, lang);
      const texts = [
        d.title,
        d.summary,
        d.confirmation,
        ...d.rows.flatMap((r) => [r.label, ...[r.value].flat()]),
        ...(d.amount ? [d.amount.label, d.amount.value] : []),
        ...Object.values(d.notes),
        ...(d.outcome ? [d.outcome.text] : []),
      ];
      for (const text of texts) {
        expect(text.trim()).not.toBe("");
        // next-intl answers a missing key with the key path itself.
        expect(text).not.toMatch(/[{}]|tools\./);
      }
      expect(d.outcome === null).toBe(result === null);
    }
  });
});

describe("the return's card", () => {
  const tool = WRITE_TOOLS.find((t) => t.name === "create_return_request")!;
  const sample = SAMPLES.create_return_request!;

  it("says in plain words what Confirm will do, with the refund from the plan", () => {
    const d = describeAction(tool, { ...sample, result: null }, "en");
    expect(d.title).toBe("Confirm your return request");
    expect(d.summary).toBe(
      "If you confirm, we will create a return request for order 7718 and refund €258.90 to Visa •••• 4242. Nothing happens until you confirm.",
    );
    expect(d.rows).toEqual([
      { key: "order", label: "Order", value: "7718 · delivered May 1, 2026" },
      { key: "items", label: "Items", value: ["1 × Barista Pro coffee machine (€258.90 each)"] },
      { key: "reason", label: "Reason", value: "Arrived damaged" },
      { key: "comment", label: "Comment", value: "None" },
      { key: "window", label: "Return window", value: "until May 31, 2026" },
    ]);
    expect(d.amount).toEqual({
      key: "refund",
      label: "Refund",
      value: "€258.90",
      detail: "to Visa •••• 4242",
    });
  });

  it("tells a new request from one that already existed", () => {
    const created = describeAction(tool, sample, "en");
    expect(created.outcome).toEqual({
      tone: "success",
      text: "Return request created. Request ID: RR-TEST.",
      // The refund follows the parcel: the card keeps following the return until it settles.
      awaiting: true,
    });
    const existed = describeAction(
      tool,
      { ...sample, result: { ...sample.result, createdNow: false } },
      "en",
    );
    expect(existed.outcome?.text).toBe(
      "A return request already existed (ID RR-TEST). Nothing new was created.",
    );
  });

  it("speaks Russian with ru-RU money, reasons and the app's own sentences", () => {
    const d = describeAction(tool, sample, "ru");
    expect(d.summary).toContain(
      "Если вы подтвердите, мы создадим заявку на возврат по заказу 7718",
    );
    expect(d.summary).toMatch(/258,90\s€/);
    expect(d.rows.find((r) => r.key === "reason")?.value).toBe("Пришёл повреждённым");
    expect(d.rows.find((r) => r.key === "comment")?.value).toBe("Нет");
    expect(d.outcome?.text).toBe("Заявка на возврат создана. Номер заявки: RR-TEST.");
    expect(d.confirmation).toMatch(
      /^Я подготовил заявку на возврат по заказу 7718 \(причина: повреждён\)/,
    );
    expect(d.notes.cancelled).toBe(
      "Вы отменили заявку на возврат по заказу 7718. Ничего не создано.",
    );
  });

  it("keeps a hostile comment as plain text", () => {
    const args = { ...sample.arguments, comment: "<b>box</b> {x} 🙂" };
    const d = describeAction(tool, { ...sample, arguments: args, result: null }, "en");
    expect(d.rows.find((r) => r.key === "comment")?.value).toBe("<b>box</b> {x} 🙂");
  });
});
