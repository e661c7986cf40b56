/**
 * Finds every message key the source uses, so the catalogue test can tell an unused key from a
 * used one. It only works because keys are written as literals; the convention it enforces:
 * - a translator comes from useTranslations / getTranslations / createTranslator, with a literal
 *   namespace (or none) and is called with a literal key: t("title"), t.rich("intro", …);
 * - an enumeration is one ICU `select` message (t("status", { status })), never a computed key;
 * - a write tool's module reads its own texts as t("…") / ctx.t("…") from tools.<its name>.
 * Anything else (a computed key, a translator passed around) is reported as a problem, so the
 * test fails instead of silently calling a used key unused or the other way round.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type KeyUse = { key: string; file: string; line: number };
export type Problem = { file: string; line: number; message: string };

const CREATORS = new Set(["useTranslations", "getTranslations", "createTranslator"]);
const METHODS = new Set(["rich", "markup", "raw", "has"]);
/** Names a translator is conventionally bound to; a call through one we cannot resolve is a problem. */
const TRANSLATOR_NAME = /^t([A-Z]\w*)?$/;

export function sourceFiles(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
    }
  };
  for (const d of dirs) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  return out.sort();
}

function unwrap(node: ts.Expression): ts.Expression {
  let n = node;
  while (
    ts.isAwaitExpression(n) ||
    ts.isParenthesizedExpression(n) ||
    ts.isAsExpression(n) ||
    ts.isSatisfiesExpression(n) ||
    ts.isNonNullExpression(n)
  )
    n = n.expression;
  return n;
}

function literal(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return null;
}

/** "ns" for a translator creation, "" for the root, null for a non-literal namespace, undefined if not one. */
function creationNamespace(init: ts.Expression): string | null | undefined {
  const call = unwrap(init);
  if (!ts.isCallExpression(call)) return undefined;
  const callee = call.expression;
  const name = ts.isIdentifier(callee)
    ? callee.text
    : ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : "";
  if (!CREATORS.has(name)) return undefined;
  const arg = call.arguments[0];
  if (!arg) return "";
  const lit = literal(arg);
  if (lit !== null) return lit;
  if (ts.isObjectLiteralExpression(arg)) {
    const ns = arg.properties.find(
      (p): p is ts.PropertyAssignment =>
        ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === "namespace",
    );
    if (!ns) return "";
    return literal(ns.initializer);
  }
  return null;
}

type Binding = { kind: "translator"; namespace: string | null } | { kind: "other" };

/** The nearest declaration of `name` visible from `from` (blocks, functions, the file). */
function resolve(name: string, from: ts.Node): Binding | null {
  for (let scope: ts.Node | undefined = from.parent; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      for (const p of scope.parameters) if (bindsName(p.name, name)) return { kind: "other" };
    }
    const statements =
      ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)
        ? scope.statements
        : null;
    if (!statements) continue;
    for (const st of statements) {
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!bindsName(d.name, name)) continue;
          const ns =
            d.initializer && ts.isIdentifier(d.name) ? creationNamespace(d.initializer) : undefined;
          return ns === undefined ? { kind: "other" } : { kind: "translator", namespace: ns };
        }
      } else if (
        (ts.isFunctionDeclaration(st) || ts.isImportDeclaration(st)) &&
        declaresName(st, name)
      ) {
        return { kind: "other" };
      }
    }
  }
  return null;
}

function bindsName(n: ts.BindingName, name: string): boolean {
  if (ts.isIdentifier(n)) return n.text === name;
  return n.elements.some((e) => !ts.isOmittedExpression(e) && bindsName(e.name, name));
}

function declaresName(st: ts.FunctionDeclaration | ts.ImportDeclaration, name: string): boolean {
  if (ts.isFunctionDeclaration(st)) return st.name?.text === name;
  const clause = st.importClause;
  if (!clause) return false;
  if (clause.name?.text === name) return true;
  const nb = clause.namedBindings;
  if (!nb) return false;
  if (ts.isNamespaceImport(nb)) return nb.name.text === name;
  return nb.elements.some((e) => e.name.text === name);
}

/** A write tool's module: `name: "snake_case"` next to `access: "write"` in one object. */
/** The `name: "…"` of the meta.ts next to a tool folder's module. */
function metaName(file: string): string | null {
  const meta = path.join(path.dirname(file), "meta.ts");
  if (!fs.existsSync(meta)) return null;
  return fs.readFileSync(meta, "utf8").match(/\bname: "([a-z_]+)"/)?.[1] ?? null;
}

function toolName(sf: ts.SourceFile): string | null {
  let found: string | null = null;
  const visit = (n: ts.Node) => {
    if (found) return;
    if (ts.isObjectLiteralExpression(n)) {
      const prop = (k: string) =>
        n.properties.find(
          (p): p is ts.PropertyAssignment =>
            ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === k,
        );
      const access = literal(prop("access")?.initializer);
      const init = prop("name")?.initializer;
      // A tool folder's definition names itself by its meta.ts (`name: meta.name`).
      const name =
        init && ts.isPropertyAccessExpression(init) && init.getText(sf) === "meta.name"
          ? metaName(sf.fileName)
          : literal(init);
      if (access === "write" && name) found = name;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

export function scanKeyUses(root: string, dirs = ["app", "components", "lib", "cli", "scripts"]) {
  const uses: KeyUse[] = [];
  const problems: Problem[] = [];
  for (const file of sourceFiles(root, dirs)) {
    const text = fs.readFileSync(file, "utf8");
    const rel = path.relative(root, file);
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const tool = toolName(sf);
    const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;

    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) check(n);
      ts.forEachChild(n, visit);
    };

    const check = (call: ts.CallExpression) => {
      // t("k") / t.rich("k") / ctx.t("k") / ctx.t.rich("k")
      let target: ts.Expression = call.expression;
      if (ts.isPropertyAccessExpression(target) && METHODS.has(target.name.text)) {
        const inner = target.expression;
        if (
          ts.isIdentifier(inner) ||
          (ts.isPropertyAccessExpression(inner) && inner.name.text === "t")
        )
          target = inner;
      }
      let namespace: string | null | undefined;
      let name: string;
      if (ts.isIdentifier(target)) {
        name = target.text;
        const b = resolve(name, call);
        if (b?.kind === "translator") namespace = b.namespace;
        else if (!TRANSLATOR_NAME.test(name)) return;
        else if (tool) namespace = `tools.${tool}`;
        else if (b?.kind === "other" || b === null) {
          problems.push({
            file: rel,
            line: lineOf(call),
            message: `${name}(…) is not a translator created in this scope with a literal namespace`,
          });
          return;
        }
      } else if (ts.isPropertyAccessExpression(target) && target.name.text === "t") {
        if (!tool) return;
        name = "t";
        namespace = `tools.${tool}`;
      } else return;

      if (namespace === null) {
        problems.push({ file: rel, line: lineOf(call), message: `${name}: non-literal namespace` });
        return;
      }
      const keys = literalKeys(call.arguments[0]);
      if (!keys) {
        problems.push({
          file: rel,
          line: lineOf(call),
          message: `${name}(…): the key must be a string literal (use an ICU select for enumerations)`,
        });
        return;
      }
      for (const k of keys)
        uses.push({ key: namespace ? `${namespace}.${k}` : k, file: rel, line: lineOf(call) });
    };
    visit(sf);
  }
  return { uses, problems };
}

/** A literal, or a conditional whose branches are literals. */
function literalKeys(arg: ts.Expression | undefined): string[] | null {
  if (!arg) return null;
  const lit = literal(arg);
  if (lit !== null) return [lit];
  const a = unwrap(arg);
  if (ts.isConditionalExpression(a)) {
    const l = literalKeys(a.whenTrue);
    const r = literalKeys(a.whenFalse);
    return l && r ? [...l, ...r] : null;
  }
  return null;
}

/** "a.b.c" -> message, for every leaf of a catalogue. */
export function flatten(obj: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof obj === "string") {
    out.set(prefix, obj);
    return out;
  }
  if (obj && typeof obj === "object") {
    for (const [k, v] of Object.entries(obj)) {
      for (const [kk, vv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
    }
  }
  return out;
}
