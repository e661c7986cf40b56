/**
 * `npm run eval`'s engine: the behaviour checks (the utterance table, the eight scenarios, the
 * multi-turn rows) against whatever model is configured, through the real chat pipeline (route
 * handlers, tool loop, executor, SQLite) on throwaway databases. Per-turn tokens and latency are
 * read back from the model-call rows the turn itself stored.
 */
import { closeDb } from "@/db";
import { listModelCallsForChat, type ModelCallRow } from "@/db/queries/metrics";
import { modelInfo } from "@/lib/ai/models/info";
import { ACTIVE_PROMPT_VERSION, SUMMARY_PROMPT } from "@/lib/ai/prompts";
import { TRIAGE_PROMPT_VERSION } from "@/lib/ai/triage-prompt";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { toolDescriptors } from "@/lib/tools/registry";
import { Customer } from "../harness/chat";
import { useTestDatabase as freshDatabase } from "../harness/db";
import { readTurn, type TurnResult } from "../harness/stream";
import { type Expect, judge, type Observed, observe, unrequestedWrites } from "./judge";
import { runScenarios, type ScenarioResult } from "./scenarios";
import { type Row, UTTERANCES } from "./utterances.table";

export type ClassScore = { total: number; right: number; accuracy: number };
export type EvalReport = {
  date: string;
  model: { provider: string; id: string };
  promptVersions: { support: string; summary: string; triage: string };
  cases: number;
  classes: Record<string, ClassScore>;
  /** Rows of several messages, and two requests in one message. */
  groups: Record<string, ClassScore>;
  scenarios: ScenarioResult[];
  /** Write calls (carded or refused by policy) of a tool the row did not ask for. */
  unrequestedWrites: { say: string | string[]; tool: string; args: unknown }[];
  clarifyingQuestionRate: number;
  perTurn: {
    turns: number;
    inputTokens: number | null;
    outputTokens: number | null;
    latencyMsP50: number | null;
    latencyMsP95: number | null;
    ttftMsP50: number | null;
    failed: number;
  };
  wrong: {
    say: string | string[];
    expected: Expect;
    observed: Omit<Observed, "text"> & { text: string };
  }[];
};

const score = (right: number, total: number): ClassScore => ({
  total,
  right,
  accuracy: total === 0 ? 1 : right / total,
});

function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;

/** Own process, own throwaway databases: lift the per-customer limits the eval would trip. */
function prepareEnvironment() {
  process.env.CHAT_RATE_LIMIT_PER_MINUTE = "10000";
  process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE = "100000";
}

export async function runEval(
  opts: { rows?: readonly Row[]; onProgress?: (line: string) => void } = {},
): Promise<EvalReport> {
  prepareEnvironment();
  const rows = opts.rows ?? UTTERANCES;
  const writeTools = new Set(
    toolDescriptors()
      .filter((d) => d.access === "write")
      .map((d) => d.name),
  );
  const calls: ModelCallRow[] = [];
  const chats = new Set<string>();
  const onTurn = (chatId: string, _turn: TurnResult) => {
    chats.add(chatId);
  };
  const collect = async () => {
    for (const id of chats)
      calls.push(...(await listModelCallsForChat({ chatId: id })).filter((c) => c.kind === "turn"));
    chats.clear();
  };

  // Database 1: the utterance table (nothing is confirmed), then the English scenarios.
  await freshDatabase();
  await resetRateLimits();
  let anna = await Customer.signIn("anna@example.com");
  const byClass = new Map<string, { right: number; total: number }>();
  const groups = new Map<string, { right: number; total: number }>();
  const bump = (m: typeof byClass, k: string, ok: boolean) => {
    const v = m.get(k) ?? { right: 0, total: 0 };
    v.total += 1;
    if (ok) v.right += 1;
    m.set(k, v);
  };
  const unrequested: EvalReport["unrequestedWrites"] = [];
  const wrong: EvalReport["wrong"] = [];
  let clarifying = 0;
  let judged = 0;
  for (const [i, row] of rows.entries()) {
    const says = Array.isArray(row.say) ? row.say : [row.say];
    const chat = await anna.newChat();
    let last: Observed | null = null;
    for (const text of says) {
      const res = await anna.post(chat, { text });
      if (res.status === 409) {
        // An earlier message of the row already became a card; the row cannot go on.
        last = null;
        break;
      }
      const turn = await readTurn(res);
      onTurn(chat, turn);
      last = observe(turn, writeTools);
      for (const w of unrequestedWrites(row.expect, last, writeTools))
        unrequested.push({ say: row.say, tool: w.tool, args: w.input });
    }
    const ok = last !== null && judge(row.expect, last, writeTools);
    judged += 1;
    if (last?.clarifying) clarifying += 1;
    bump(byClass, row.expect.class, ok);
    if (says.length > 1) bump(groups, "multi_turn", ok);
    if (row.expect.class === "answer_and_propose") bump(groups, "two_requests", ok);
    bump(groups, `lang_${row.lang}`, ok);
    if (!ok && wrong.length < 50)
      wrong.push({
        say: row.say,
        expected: row.expect,
        observed: last ?? {
          reads: [],
          writes: [],
          proposal: null,
          text: "(the row stopped: a card was waiting)",
          clarifying: false,
          refusal: false,
        },
      });
    if ((i + 1) % 25 === 0) opts.onProgress?.(`${i + 1}/${rows.length} utterances`);
  }
  const scenarios = await runScenarios(anna, "en", writeTools, onTurn);
  await collect();

  // Database 2: the Russian scenarios need 7718 returnable again.
  await freshDatabase();
  await resetRateLimits();
  anna = await Customer.signIn("anna@example.com");
  scenarios.push(...(await runScenarios(anna, "ru", writeTools, onTurn)));
  await collect();
  await closeDb();

  const answered = calls.filter((c) => c.error === null);
  const info = modelInfo();
  return {
    date: new Date().toISOString(),
    model: info,
    promptVersions: {
      support: ACTIVE_PROMPT_VERSION,
      summary: SUMMARY_PROMPT.version,
      triage: TRIAGE_PROMPT_VERSION,
    },
    cases: rows.length + scenarios.length,
    classes: Object.fromEntries([...byClass].map(([k, v]) => [k, score(v.right, v.total)])),
    groups: Object.fromEntries([...groups].map(([k, v]) => [k, score(v.right, v.total)])),
    scenarios,
    unrequestedWrites: unrequested,
    clarifyingQuestionRate: judged === 0 ? 0 : clarifying / judged,
    perTurn: {
      turns: calls.length,
      inputTokens: mean(answered.flatMap((c) => (c.inputTokens === null ? [] : [c.inputTokens]))),
      outputTokens: mean(
        answered.flatMap((c) => (c.outputTokens === null ? [] : [c.outputTokens])),
      ),
      latencyMsP50: percentile(
        answered.map((c) => c.latencyMs),
        0.5,
      ),
      latencyMsP95: percentile(
        answered.map((c) => c.latencyMs),
        0.95,
      ),
      ttftMsP50: percentile(
        answered.flatMap((c) => (c.ttftMs === null ? [] : [c.ttftMs])),
        0.5,
      ),
      failed: calls.length - answered.length,
    },
    wrong,
  };
}
