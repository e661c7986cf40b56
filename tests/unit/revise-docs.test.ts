/**
 * What a customer may revise is the tool's `editable`; docs/api.md says it in words, and must say
 * exactly what the tools declare (the OpenAPI document and the card derive it from the same
 * declaration).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EDITABLE_FIELDS_TEXT } from "@/lib/api/schemas";

describe("docs/api.md on revisions", () => {
  it("lists each write tool's editable fields as the tools declare them", () => {
    const doc = readFileSync(path.join(import.meta.dirname, "../../docs/api.md"), "utf8");
    const revise = doc.slice(doc.indexOf("- `POST /api/actions/{id}/revise`"));
    const paragraph = revise.slice(0, revise.indexOf("\n- ")).replace(/\s+/g, " ");
    expect(paragraph).toContain(`(${EDITABLE_FIELDS_TEXT})`);
  });
});
