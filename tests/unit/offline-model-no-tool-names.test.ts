/**
 * The offline model knows tools only through their rows (lib/tools/<tool>/offline.ts) and what
 * read tools say they read: no file under lib/ai/models/offline/ names a registered tool, in code
 * or in a comment. The names come from the registry, so a tool added tomorrow is checked too.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { TOOLS } from "@/lib/tools/registry";

const ROOT = path.join(process.cwd(), "lib", "ai", "models", "offline");

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
}

it("no file of the offline model names a registered tool", () => {
  const files = filesUnder(ROOT);
  expect(files.length).toBeGreaterThan(10);
  const names = TOOLS.map((t) => t.name);
  expect(names.length).toBeGreaterThan(0);
  const found = files.flatMap((file) => {
    const text = fs.readFileSync(file, "utf8");
    return names
      .filter((name) => text.includes(name))
      .map((name) => `${path.relative(process.cwd(), file)}: ${name}`);
  });
  expect(found).toEqual([]);
});
