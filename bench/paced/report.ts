/**
 * `npm run bench:paced`'s results as Markdown, and their place in docs/benchmarks.md: only the
 * block between the bench:paced:results markers is rewritten; the notes around it stay.
 */
import fs from "node:fs";
import type { PhaseResult, RouteName } from "./turns";

export type { RouteName };

export type PacedReport = {
  date: string;
  machine: string;
  command: string;
  serverCommand: string;
  pace: { firstTokenMs: number; words: number; wordsPerSecond: number };
  seconds: number;
  store: string;
  results: { level: number; route: RouteName; result: PhaseResult }[];
};

const SECTION = ["<!-- bench:paced:start -->", "<!-- bench:paced:end -->"] as const;
const RESULTS = ["<!-- bench:paced:results:start -->", "<!-- bench:paced:results:end -->"] as const;

const ROUTE_TEXT: Record<RouteName, string> = {
  bare: "bare AI SDK server",
  next: "Next route, no auth or database",
  app: "our turn (`npm start`)",
};

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
const x = (a: number, b: number) =>
  b > 0 && Number.isFinite(a) && Number.isFinite(b) ? `${(a / b).toFixed(2)}×` : "–";
const mib = (b: number | undefined) => (b ? `${(b / 2 ** 20).toFixed(0)}` : "–");
const kib = (b: number) => (Number.isFinite(b) ? `${(b / 1024).toFixed(0)}` : "–");

/** How busy each process was over the phase, in cores, and the machine's load average. */
function cores(p: PhaseResult): string {
  const c = (ms: number | undefined) =>
    ms === undefined ? "–" : (ms / 1000 / p.wallSeconds).toFixed(2);
  return `${c(p.serverCpuMs)} / ${c(p.modelCpuMs)} / ${c(p.clientCpuMs)}, ${p.load?.toFixed(1) ?? "–"}`;
}

export function renderPaced(r: PacedReport): string {
  const lines = [
    `Run ${r.date} on ${r.machine}.`,
    `Command: \`${r.command}\`. The model: the loopback OpenAI server in its own process, first token after ${r.pace.firstTokenMs} ms on each call, ` +
      `then ${r.pace.words} words at ${r.pace.wordsPerSecond} words/s on the answer. The turn: "Where is my order NNNN?", two model calls and the tool. ` +
      `Each level runs each route for ${r.seconds} s, one route after the other, every customer asking again as soon as a turn ends. ` +
      `Our turn: production build, \`${r.serverCommand}\`, SQLite, store ${r.store}; the Next route runs in the same server; ` +
      "the bare server is its own `node` process with Node's default flags.",
    "",
    "Times in ms at the client, over loopback: first = the first text token, end = the whole turn. Ratios against the bare AI SDK server at the same level, same run. " +
      "CPU per turn: the server process's user + system time over the phase, divided by its turns. " +
      "Per open stream: (peak RSS during the phase − RSS before it) ÷ customers. Event-loop delay: `monitorEventLoopDelay` in the server, over the phase.",
    "",
    "| customers | route | turns | errors | refused | turns/s | first p50 | first p99 | end p50 | end p99 | first p50 ÷ bare | first p99 ÷ bare | CPU ms/turn | peak RSS MiB | KiB per open stream | loop delay p50 / p99 / max ms | model's loop delay p99 ms | cores: server / model / client, load |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|",
  ];
  const errors: string[] = [];
  for (const { level, route, result: p } of r.results) {
    const bare = r.results.find((o) => o.level === level && o.route === "bare")?.result;
    const n = p.turns.length;
    const perStream =
      p.peakRssBytes && p.idleRssBytes ? (p.peakRssBytes - p.idleRssBytes) / level : Number.NaN;
    const loop = p.loop ? `${p.loop.p50} / ${p.loop.p99} / ${p.loop.max}` : "–";
    lines.push(
      `| ${level} | ${ROUTE_TEXT[route]} | ${n} | ${p.errors.length} | ${p.refused} | ${(n / p.wallSeconds).toFixed(1)} | ` +
        `${ms(p.ttft.p50)} | ${ms(p.ttft.p99)} | ${ms(p.end.p50)} | ${ms(p.end.p99)} | ` +
        `${route === "bare" || !bare ? "–" : x(p.ttft.p50, bare.ttft.p50)} | ${route === "bare" || !bare ? "–" : x(p.ttft.p99, bare.ttft.p99)} | ` +
        `${p.serverCpuMs !== undefined && n ? (p.serverCpuMs / n).toFixed(1) : "–"} | ${mib(p.peakRssBytes)} | ${kib(perStream)} | ${loop} | ${p.modelLoop?.p99 ?? "–"} | ${cores(p)} |`,
    );
    for (const e of p.errors.slice(0, 3)) errors.push(`- ${level}, ${route}: ${e}`);
  }
  const stores = (route: RouteName) =>
    r.results.findLast((o) => o.route === route)?.result.loop?.stores ?? "–";
  lines.push(
    "",
    `AsyncLocalStorage instances in use at the end (each adds work to every promise on Node 20): production server ${stores("app") === "–" ? stores("next") : stores("app")}, bare server ${stores("bare")}.`,
  );
  if (errors.length) lines.push("", "First errors:", ...errors);
  return lines.join("\n");
}

export function writePaced(file: string, markdown: string): void {
  const doc = fs.readFileSync(file, "utf8");
  const block = `${RESULTS[0]}\n${markdown}\n${RESULTS[1]}`;
  let next: string;
  if (doc.includes(RESULTS[0]) && doc.includes(RESULTS[1])) {
    next =
      doc.slice(0, doc.indexOf(RESULTS[0])) +
      block +
      doc.slice(doc.indexOf(RESULTS[1]) + RESULTS[1].length);
  } else {
    next = `${doc.trimEnd()}\n\n${SECTION[0]}\n## A chat turn at a hosted model's pace (\`npm run bench:paced\`)\n\n${block}\n${SECTION[1]}\n`;
  }
  fs.writeFileSync(file, next);
}
