/**
 * GET /api/openapi.json: served without a session, valid OpenAPI 3.1 (checked by an OpenAPI
 * schema validator, not by us), and complete: every route file and every method it really
 * serves is documented, and every error code the API has appears under its status.
 */
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET as openApiGet } from "@/app/api/openapi.json/route";
import { ERROR_STATUS } from "@/lib/errors";
import { contractProblems } from "../helpers/contract";
import { call } from "../helpers/http";

const API_DIR = path.resolve(import.meta.dirname, "../../app/api");

/** Route files that are not endpoints of their own. */
const NOT_ENDPOINTS = new Set([
  "[...rest]", // the JSON 404 for unknown paths
  "auth/[...all]", // better-auth; its documented routes are listed by hand
  "bench/floor", // exists only in a server started by the benchmark
  "bench/model", // likewise (npm run bench:paced)
]);

function routeFiles(dir = API_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

async function fetchDocument() {
  const res = await call(openApiGet, "/api/openapi.json", {});
  expect(res.status).toBe(200);
  return (await res.json()) as {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
}

describe("GET /api/openapi.json", () => {
  it("needs no session and validates as OpenAPI 3.1", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents every route file and every method it serves", async () => {
    const doc = await fetchDocument();
    const seen: string[] = [];
    for (const file of routeFiles()) {
      const rel = path.relative(API_DIR, path.dirname(file));
      if (NOT_ENDPOINTS.has(rel)) continue;
      const template = `/api/${rel.replace(/\[([^\].]+)\]/g, "{$1}")}`;
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        const fn = mod[method] as Parameters<typeof call>[0] | undefined;
        if (!fn) continue;
        const concrete = template.replace(/\{[^}]+\}/g, "x");
        // Without a session every real endpoint answers something other than the stub's 405.
        const res = await fn(new Request(`http://localhost:3000${concrete}`, { method }), {
          params: Promise.resolve({ id: "x" }),
        });
        await res.body?.cancel();
        if (res.status === 405) continue;
        seen.push(`${method} ${template}`);
        expect(doc.paths[template]?.[method.toLowerCase()], `${method} ${template}`).toBeDefined();
      }
    }
    // The walk really found the endpoints (a broken walk must not pass by finding none).
    expect(seen).toEqual(
      expect.arrayContaining([
        "GET /api/health",
        "POST /api/chats/{id}/messages",
        "POST /api/actions/{id}/confirm",
        "GET /api/audit/export",
        "POST /api/staff/chats/{id}/triage",
        "GET /api/openapi.json",
      ]),
    );
  });

  it("lists every error code of the API under the status it is sent with", async () => {
    const doc = await fetchDocument();
    const documented = new Map<string, Set<string>>();
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const [status, response] of Object.entries(op.responses)) {
          const codes = JSON.stringify(response).match(/"enum":\[[^\]]*\]/g) ?? [];
          for (const list of codes)
            for (const code of JSON.parse(list.slice(7)) as string[])
              documented.set(code, (documented.get(code) ?? new Set()).add(status));
        }
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      // 405 is the answer to a method an operation does not have, so no operation lists it.
      if (code === "method_not_allowed") continue;
      expect([...(documented.get(code) ?? [])], code).toContain(String(status));
    }
  });
});

describe("the contract checker the API suites run on every response", () => {
  const json = "application/json";
  const err = (code: string) => JSON.stringify({ error: { code, message: "m" } });

  it("accepts documented answers", () => {
    expect(
      contractProblems({
        method: "GET",
        path: "/api/chats/abc",
        status: 404,
        contentType: json,
        text: err("not_found"),
      }),
    ).toEqual([]);
    expect(
      contractProblems({
        method: "PUT",
        path: "/api/chats",
        status: 405,
        contentType: json,
        text: err("method_not_allowed"),
      }),
    ).toEqual([]);
  });

  it("fails an error code, a status, an endpoint or a field the document does not have", () => {
    const cases = [
      { method: "GET", path: "/api/chats/abc", status: 404, text: err("gone_fishing") },
      { method: "GET", path: "/api/chats/abc", status: 409, text: err("action_pending") },
      { method: "GET", path: "/api/secret", status: 200, text: "{}" },
      { method: "DELETE", path: "/api/chats/abc", status: 200, text: "{}" },
      {
        method: "GET",
        path: "/api/chats",
        status: 200,
        text: JSON.stringify({ chats: [{ id: "a", createdAt: "2026-01-01T00:00:00Z" }] }),
      },
      {
        method: "GET",
        path: "/api/health",
        status: 200,
        text: JSON.stringify({
          status: "ok",
          db: "ok",
          model: { provider: "offline", id: "x" },
          secret: 1,
        }),
      },
    ];
    for (const c of cases)
      expect(contractProblems({ ...c, contentType: json }), JSON.stringify(c)).not.toEqual([]);
  });
});
