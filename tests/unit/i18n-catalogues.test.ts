/**
 * The message catalogues stay in step with each other and with the code: a key missing from
 * one language, a key no screen uses, a key the code uses but no catalogue has, a computed key
 * (which would hide uses from this test), or a Russian message that drops or renames an ICU
 * argument of the English one, all fail here.
 */
import path from "node:path";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { messagesFor } from "@/lib/i18n/messages";
import { TOOLS } from "@/lib/tools/registry";
import { flatten, scanKeyUses } from "../helpers/i18n-keys";

// The catalogues as the app serves them: messages/*.json plus every tool's own texts.
const en = messagesFor("en");
const ru = messagesFor("ru");

const root = path.resolve(import.meta.dirname, "../..");
const catalogues = { en: flatten(en), ru: flatten(ru) };
const { uses, problems } = scanKeyUses(root);

function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      names.add(`${el.value}:${el.type === TYPE.tag ? "tag" : "arg"}`);
      if (el.type === TYPE.tag) walk(el.children);
      if (el.type === TYPE.select || el.type === TYPE.plural)
        for (const o of Object.values(el.options)) walk(o.value);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

describe("message catalogues", () => {
  it("every key is in both languages", () => {
    const missingInRu = [...catalogues.en.keys()].filter((k) => !catalogues.ru.has(k));
    const missingInEn = [...catalogues.ru.keys()].filter((k) => !catalogues.en.has(k));
    expect({ missingInRu, missingInEn }).toEqual({ missingInRu: [], missingInEn: [] });
  });

  it("the source uses keys only as literals, through translators it can resolve", () => {
    expect(problems.map((p) => `${p.file}:${p.line} ${p.message}`)).toEqual([]);
  });

  it("finds the keys the source uses (the scan itself works)", () => {
    expect(uses.length).toBeGreaterThan(20);
    expect(uses.map((u) => u.key)).toContain("header.signOut");
  });

  it("every key the source uses exists", () => {
    const unknown = uses
      .filter((u) => !catalogues.en.has(u.key))
      .map((u) => `${u.file}:${u.line} ${u.key}`);
    expect(unknown).toEqual([]);
  });

  // The card's edit form (lib/chat/present.ts) labels a line of a structured editable field
  // with tools.<name>.rows.<field>.<key>, built from the tool's `editable`.
  const editFormLabel = (key: string) => {
    const m = /^tools\.([a-z_]+)\.rows\.(\w+)\.\w+$/.exec(key);
    const tool = m && TOOLS.find((t) => t.name === m[1]);
    return Boolean(tool && "editable" in tool && tool.editable.includes(m[2]!));
  };

  it("every key is used somewhere", () => {
    const used = new Set(uses.map((u) => u.key));
    // A tool's note texts (tools.<name>.note.*) and category label (tools.<name>.triageCategory)
    // are read by lib/i18n/messages.ts, which joins them into conversation.toolNote and
    // audit.triage.categories: used when those are.
    const isUsed = (key: string) =>
      used.has(key) ||
      [...used].some((u) => key.startsWith(`${u}.`)) || // t.raw("group")
      (/^tools\.[a-z_]+\.note\.(running|done|refused|failed)$/.test(key) &&
        used.has(`conversation.toolNote.${key.split(".").at(-1)}`)) ||
      (/^tools\.[a-z_]+\.triageCategory$/.test(key) && used.has("audit.triage.categories")) ||
      editFormLabel(key);
    expect([...catalogues.en.keys()].filter((k) => !isUsed(k))).toEqual([]);
  });

  it("every message parses, and Russian has the same arguments and tags as English", () => {
    const mismatched: string[] = [];
    for (const [key, message] of catalogues.en) {
      const other = catalogues.ru.get(key);
      if (other === undefined) continue;
      const a = argumentsOf(message);
      const b = argumentsOf(other);
      if (a.join() !== b.join()) mismatched.push(`${key}: en ${a.join(" ")} / ru ${b.join(" ")}`);
    }
    expect(mismatched).toEqual([]);
  });
});
