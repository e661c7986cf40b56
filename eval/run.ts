/**
 * `npm run eval [-- --json=path --docs --rows=N --table=heldout|fresh --probes]`: the behaviour checks against the configured model
 * (MODEL_PROVIDER, OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL; see docs/evals.md for Ollama
 * and OpenAI). Prints the markdown summary, writes the full JSON report (default
 * eval-report.json, ignored by git), and with --docs replaces this model's section of
 * docs/evals.md. Exit code 1 when any write was proposed that the customer did not ask for.
 * Runs with `--conditions=react-server` because the app's modules import "server-only".
 *
 * --probes: first builds a probe set in the mix of the app database's recent turn profiles
 * (DATABASE_URL or DATABASE_PATH, as the server uses them) from the tables' own utterances, stores
 * it under the live fingerprint (the staff pages stop calling the set stale), then runs the new
 * set and, next to it, the previous set's probes of scenarios the new one lost.
 *
 * --probes --shadow: builds the set the same way, then runs those probes in shadow instead of
 * judging them: each is run dry (the dry run shadow mode uses on live turns) by the live profile
 * and by the candidate (CANDIDATE_*; CANDIDATE_MODE must not be off), on a throwaway demo
 * database as the eval's customer, and the two trajectories are compared. Prints the comparison
 * and writes it as JSON; nothing is stored and no provider is asked for anything.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { closeDb } from "@/db";
import { initDatabase } from "@/db/init";
import { probesToRun, rebuildProbeSet } from "@/lib/chat/probes/sets";
import { runProbesInShadow } from "@/lib/chat/probes/shadow";
import { useTestDatabase as freshDatabase, userIdOf } from "../harness/db";
import { runEval } from "./core";
import { HELDOUT } from "./heldout.table";
import { HELDOUT_FRESH } from "./heldout-fresh.table";
import { probeCandidates, rowOfProbe } from "./probes";
import { markdownSection, writeEvalSection } from "./report";
import { UTTERANCES } from "./utterances.table";

const flag = (name: string) =>
  process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const jsonPath = flag("json")?.split("=")[1] || "eval-report.json";

function commit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

/** Builds and stores the probe set, and returns what to run: the new set's, then the carried. */
async function buildProbes() {
  await initDatabase();
  const set = await rebuildProbeSet({ candidates: probeCandidates() });
  const toRun = await probesToRun();
  await closeDb();
  console.error(
    `Probe set ${set.id} for ${set.fingerprint}: ${set.probes.length} probes from ${set.profiles} turn profiles`,
  );
  for (const s of set.mix.scenarios)
    console.error(`  ${s.scenario}: ${(s.share * 100).toFixed(1)}% -> ${s.probes} (${s.matched})`);
  const carried = toRun.filter((p) => p.set === "previous").length;
  if (carried > 0) console.error(`  + ${carried} probes of the previous set (scenarios it lost)`);
  return toRun;
}

async function probeRows() {
  return (await buildProbes()).flatMap((p) => rowOfProbe(p.probe.source) ?? []);
}

/** --probes --shadow: the probes through both profiles, dry, on a throwaway demo database. */
async function probesInShadow(): Promise<never> {
  const toRun = await buildProbes();
  await freshDatabase();
  const report = await runProbesInShadow({
    probes: toRun,
    userId: await userIdOf("anna@example.com"),
  });
  fs.writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  const s = report.summary;
  const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
  console.log(`Probes in shadow: live ${report.live}, candidate ${report.candidate}`);
  console.log(`  probes: ${s.probes} (${s.previous} of the previous set)`);
  console.log(
    `  tool agreement: ${pct(s.toolAgreement)}, argument agreement: ${pct(s.argsAgreement)}`,
  );
  console.log(
    `  writes only the candidate proposed: ${s.candidateOnlyWrites}, only live: ${s.liveOnlyWrites}`,
  );
  console.log(`  errors: candidate ${s.candidateErrors}, live ${s.liveErrors}`);
  for (const r of report.runs.filter((x) => !x.argsAgree))
    console.log(
      `  ${r.set} ${r.scenario} (${r.source}): live [${r.live.tools.join(", ")}]${r.live.error ? ` ${r.live.error}` : ""}, candidate [${r.candidate.tools.join(", ")}]${r.candidate.error ? ` ${r.candidate.error}` : ""}`,
    );
  console.error(`JSON report: ${jsonPath}`);
  await closeDb();
  process.exit(0);
}

if (flag("probes") && flag("shadow")) await probesInShadow();

// --table=heldout or --table=fresh: a held-out set instead of the utterance table (phrasings
// written before the model was tuned on them; "fresh" is the one nobody has looked at yet).
// --probes: the probe set built from live load's mix.
const tableName = flag("table")?.split("=")[1];
const table = flag("probes")
  ? await probeRows()
  : tableName === "heldout"
    ? HELDOUT
    : tableName === "fresh"
      ? HELDOUT_FRESH
      : UTTERANCES;
// --rows=N: only the first N rows of the table (a quick run; the scenarios always run).
const limit = Number(flag("rows")?.split("=")[1] ?? Number.NaN);
const report = await runEval({
  rows: Number.isInteger(limit) && limit > 0 ? table.slice(0, limit) : table,
  onProgress: (line) => console.error(line),
});
fs.writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(markdownSection(report, commit()));
// The held-out figure is written into docs/evals.md by hand: --docs records the utterance table.
if (flag("docs") && table === UTTERANCES) writeEvalSection(report, commit());
if (report.unrequestedWrites.length > 0) {
  console.error(`${report.unrequestedWrites.length} unrequested write proposal(s): failing.`);
  process.exitCode = 1;
}
console.error(`JSON report: ${jsonPath}`);
