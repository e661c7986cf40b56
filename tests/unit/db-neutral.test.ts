/**
 * db/queries runs on SQLite and PostgreSQL through one set of query builders: it must use only
 * calls both drizzle dialects have (build, then await). SQLite-only result calls would type-check
 * (the modules are typed against the SQLite tables) and fail only on PostgreSQL, so they are
 * caught here.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const DIR = path.join(process.cwd(), "db", "queries");

it("db/queries uses no SQLite-only calls (.get/.all/.run/.values(), $client)", () => {
  const offenders: string[] = [];
  for (const file of fs.readdirSync(DIR)) {
    const text = fs.readFileSync(path.join(DIR, file), "utf8");
    text.split("\n").forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      if (/\.(get|all|run)\(\)|\$client|\.prepare\(/.test(line) && file !== "tx.ts")
        offenders.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(offenders).toEqual([]);
});
