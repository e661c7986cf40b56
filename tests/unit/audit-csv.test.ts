import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/audit/csv";

/** A strict RFC 4180 reader for one record, to check what a spreadsheet would see. */
function parseRecord(line: string): string[] {
  expect(line.endsWith("\r\n")).toBe(true);
  const text = line.slice(0, -2);
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        expect(q).toBeGreaterThanOrEqual(0);
        cell += text.slice(i, q);
        if (text[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      const end = text.indexOf(",", i);
      cell = text.slice(i, end === -1 ? text.length : end);
      expect(cell).not.toMatch(/["\r\n]/);
      i = end === -1 ? text.length : end;
    }
    cells.push(cell);
    if (i >= text.length) return cells;
    expect(text[i]).toBe(",");
    i++;
  }
}

describe("audit CSV cells", () => {
  it("round-trips any text, neutralising formula starts with a leading quote", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 6 }),
        (values) => {
          const cells = parseRecord(csvLine(values));
          expect(cells).toEqual(values.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
        },
      ),
    );
  });

  it("escapes the classic injection payloads and keeps plain values readable", () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell("+1 555")).toBe("'+1 555");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(new Date("2026-03-01T00:00:00Z"))).toBe("2026-03-01T00:00:00.000Z");
    expect(csvCell({ orderId: "7718", comment: "=cmd" })).toBe(
      '"{""orderId"":""7718"",""comment"":""=cmd""}"',
    );
  });
});
