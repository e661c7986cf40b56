/**
 * The eval's markdown: one section per model in docs/evals.md, between markers, so runs against
 * different models (offline, Ollama, OpenAI) sit side by side and a re-run replaces its own.
 */
import fs from "node:fs";
import path from "node:path";
import type { EvalReport } from "./core";

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const num = (v: number | null, unit = "") => (v === null ? "–" : `${Math.round(v)}${unit}`);

export function markdownSection(r: EvalReport, commit: string | null): string {
  const classes = Object.entries(r.classes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `| ${k} | ${v.right}/${v.total} | ${pct(v.accuracy)} |`);
  const groups = Object.entries(r.groups)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `| ${k} | ${v.right}/${v.total} | ${pct(v.accuracy)} |`);
  const passed = r.scenarios.filter((s) => s.pass).length;
  const scenarioLines = r.scenarios.map(
    (s) => `| ${s.lang} | ${s.name} | ${s.pass ? "pass" : `**fail**: ${s.detail}`} |`,
  );
  return `### ${r.model.provider} / ${r.model.id}

Run ${r.date.slice(0, 10)}${commit ? ` at commit \`${commit}\`` : ""}; prompts: support \`${r.promptVersions.support}\`, summary \`${r.promptVersions.summary}\`, triage \`${r.promptVersions.triage}\`.
${r.cases} cases through the real chat pipeline.

- **Unrequested write proposals: ${r.unrequestedWrites.length}** (must be 0)
- Clarifying-question rate: ${pct(r.clarifyingQuestionRate)} of judged turns
- Per turn (${r.perTurn.turns} turns, ${r.perTurn.failed} failed): ${num(r.perTurn.inputTokens)} input + ${num(r.perTurn.outputTokens)} output tokens on average; latency p50 ${num(r.perTurn.latencyMsP50, " ms")}, p95 ${num(r.perTurn.latencyMsP95, " ms")}; first token p50 ${num(r.perTurn.ttftMsP50, " ms")}
- Scenarios: ${passed}/${r.scenarios.length} pass

| class (utterance table) | right | accuracy |
|---|---:|---:|
${classes.join("\n")}

| group | right | accuracy |
|---|---:|---:|
${groups.join("\n")}

| lang | scenario | result |
|---|---|---|
${scenarioLines.join("\n")}
`;
}

export function writeEvalSection(
  r: EvalReport,
  commit: string | null,
  file = path.join(process.cwd(), "docs", "evals.md"),
): void {
  const key = `${r.model.provider}/${r.model.id}`.replace(/[^\w./-]/g, "_");
  const start = `<!-- eval:${key}:start -->`;
  const end = `<!-- eval:${key}:end -->`;
  const section = `${start}\n${markdownSection(r, commit).trim()}\n${end}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Evals\n";
  const a = current.indexOf(start);
  const b = current.indexOf(end);
  const next =
    a !== -1 && b > a
      ? current.slice(0, a) + section + current.slice(b + end.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}
