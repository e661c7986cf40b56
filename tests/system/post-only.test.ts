/**
 * Every state change is a POST behind the origin check (issue 7.3). The hostile suite proves it
 * for today's endpoints at run time (cross-site POSTs refused, other methods 405); this guards
 * the next route someone adds: each API route file may export a state-changing method only
 * through handler() (lib/http/handler.ts, which runs assertSameOrigin), and only POST.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const API = path.resolve(import.meta.dirname, "../../app/api");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** better-auth's handler, with its own origin check (tested in the hostile suite). */
const AUTH_ROUTE = path.join(API, "auth/[...all]/route.ts");

describe("state-changing API methods", () => {
  const files = routeFiles(API);

  it("finds the API routes", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((f) => [path.relative(API, f), f]))("%s", (_, file) => {
    const src = fs.readFileSync(file, "utf8");
    // Function declarations would bypass handler(): none allowed for any method.
    expect(src).not.toMatch(/export\s+(async\s+)?function\s+(POST|PUT|PATCH|DELETE)\b/);
    for (const m of src.matchAll(/export const (PUT|PATCH|DELETE)\s*=\s*(\w+)/g)) {
      // Only refusals and the unknown-endpoint 404 may answer these methods.
      expect(m[2], `${m[1]} in ${file}`).toBe("unknownEndpoint");
    }
    // The first token after "=": an identifier, or "(" for an inline arrow function.
    const post = /export const POST\s*=\s*([A-Za-z_$][\w$]*|\S)/.exec(src)?.[1];
    if (post && file !== AUTH_ROUTE) expect(["handler", "unknownEndpoint"]).toContain(post);
  });
});
