/**
 * Checks one real HTTP response against the OpenAPI document the server serves: the operation
 * exists, the status is documented for it, and a JSON body (success or error, so the error code
 * too) validates against the documented schema. An /api path the document does not list must
 * answer the unknown-endpoint 404, and a method it does not list the JSON 405.
 *
 * Used by the API suites (tests/helpers/http.ts `call`) and the hostile suite, so every response
 * they get is also a contract check.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { buildOpenApiDocument } from "@/lib/api/openapi";

// ajv-formats is CommonJS with a default export; both import shapes occur under vitest/tsx.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ??
  addFormatsImport) as typeof addFormatsImport;

export type ObservedResponse = {
  method: string;
  /** As sent, with or without a query string. */
  path: string;
  status: number;
  contentType: string | null | undefined;
  text: string;
};

type Doc = ReturnType<typeof buildOpenApiDocument>;
type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

let state: { doc: Doc; ajv: Ajv2020; templates: { template: string; re: RegExp }[] } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (state) return state;
  const doc = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "openapi", components: doc.components });
  const templates = Object.keys(doc.paths ?? {}).map((template) => ({
    template,
    re: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  state = { doc, ajv, templates };
  return state;
}

/** `#/components/...` refs in a schema taken out of the document point into the added schema. */
function rebase(schema: unknown): unknown {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"openapi#/components/'),
  );
}

function validatorFor(key: string, schema: unknown): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = load().ajv.compile(rebase(schema) as object);
    validators.set(key, v);
  }
  return v;
}

export function documentedTemplate(path: string): string | null {
  const bare = path.split("?")[0]!;
  return load().templates.find((t) => t.re.test(bare))?.template ?? null;
}

function errorCodeOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
  } catch {
    return undefined;
  }
}

/** Problems with one response; empty when it matches the document. */
export function contractProblems(r: ObservedResponse): string[] {
  const bare = r.path.split("?")[0]!;
  if (!bare.startsWith("/api/")) return [];
  const method = r.method.toLowerCase();
  if (method === "head" || method === "options") return [];
  const label = `${r.method} ${bare} -> ${r.status}`;
  const template = documentedTemplate(bare);
  if (!template) {
    const code = errorCodeOf(r.text);
    return r.status === 404 && code === "not_found"
      ? []
      : [`${label}: not in the document, and not the unknown-endpoint 404 (code ${String(code)})`];
  }
  const item = (load().doc.paths as Record<string, Record<string, Operation>>)[template]!;
  const op = item[method];
  if (!op) {
    const code = errorCodeOf(r.text);
    return r.status === 405 && code === "method_not_allowed"
      ? []
      : [`${label}: ${r.method} is not documented for ${template}, and the answer is not the 405`];
  }
  const response = op.responses?.[String(r.status)];
  if (!response)
    return [`${label}: status ${r.status} is not documented for ${method} ${template}`];
  const type = (r.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const media = response.content?.[type];
  if (!media) {
    if (!response.content && r.text === "") return [];
    return [`${label}: content type "${type}" is not documented for this response`];
  }
  if (type !== "application/json") return [];
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    return [`${label}: the body is not JSON`];
  }
  const validate = validatorFor(`${method} ${template} ${r.status}`, media.schema);
  if (validate(body)) return [];
  const code = errorCodeOf(r.text);
  return (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${label}${code ? ` (${String(code)})` : ""}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
    );
}

/** Throws with every problem listed; for helpers that see responses on the tests' behalf. */
export function assertContract(r: ObservedResponse): void {
  const problems = contractProblems(r);
  if (problems.length > 0) throw new Error(`OpenAPI contract:\n${problems.join("\n")}`);
}
