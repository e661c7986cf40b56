/**
 * Reads the V8 CPU profile the server wrote (`node --cpu-prof`) and says where the time went:
 * self time by function and by package, so a slow step can be traced to code, not guessed.
 * The production build's server chunks are minified; their frames are mapped back to the
 * original files and names through the build's source maps.
 */
import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber?: number };
type ProfileNode = {
  id: number;
  callFrame: Frame;
  hitCount?: number;
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };

/** node_modules/<pkg>, a chunk of our build, or node internals. */
function bucket(url: string): string {
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1]!;
  if (url.includes("/server/chunks/")) return "app chunks (.next-bench/server/chunks)";
  if (url.startsWith("node:")) return url;
  if (url === "") return "native";
  return path.basename(url);
}

const maps = new Map<string, SourceMap | null>();

/** Only our build's chunks: libraries keep their own paths, so they still group by package. */
function sourceMapFor(url: string): SourceMap | null {
  if (!url.startsWith("file://") || !url.includes("/server/chunks/")) return null;
  if (!maps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    maps.set(
      url,
      fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, "utf8"))) : null,
    );
  }
  return maps.get(url) ?? null;
}

/** A frame of a built chunk, as the original file, line and (if minified away) name. */
function original(f: Frame): Frame {
  const map = sourceMapFor(f.url);
  if (!map) return f;
  const e = map.findEntry(f.lineNumber, f.columnNumber ?? 0) as {
    originalSource?: string;
    originalLine?: number;
    name?: string;
  };
  if (!e.originalSource) return f;
  const minified = f.functionName.length <= 2;
  return {
    functionName: minified ? (e.name ?? f.functionName) : f.functionName,
    url: decodeURIComponent(e.originalSource)
      .replace(/^(\.\.\/)+/, "")
      .replace("[project]/", ""),
    lineNumber: e.originalLine ?? f.lineNumber,
  };
}

export function summarizeProfile(file: string, top = 25): string {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  for (const n of p.nodes) n.callFrame = original(n.callFrame);
  const totalMs = (p.endTime - p.startTime) / 1000;
  const perSample = totalMs / Math.max(1, p.samples.length);
  const byFn = new Map<string, number>();
  const byBucket = new Map<string, number>();
  for (const n of p.nodes) {
    const selfMs = (n.hitCount ?? 0) * perSample;
    if (selfMs === 0) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const key = `${functionName || "(anonymous)"}  ${bucket(url)}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + selfMs);
    byBucket.set(bucket(url), (byBucket.get(bucket(url)) ?? 0) + selfMs);
  }
  const idle = byFn.get("(idle)  native:0") ?? 0;
  const busy = totalMs - idle;
  const fmt = (entries: [string, number][]) =>
    entries
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, v]) =>
          `${v.toFixed(0).padStart(7)} ms ${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`,
      )
      .join("\n");
  return [
    `profile ${path.basename(file)}: ${totalMs.toFixed(0)} ms, busy ${busy.toFixed(0)} ms`,
    "inclusive time by project function (unminified runs only):",
    fmt([...inclusiveByProjectFunction(p, perSample)]),
    "self time by package:",
    fmt([...byBucket]),
    "self time by function:",
    fmt([...byFn]),
  ].join("\n");
}

/** The main thread's profile: the largest .cpuprofile in the folder (loader workers write small ones). */
export function mainProfile(dir: string): string | null {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f));
  files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  return files[0] ?? null;
}

/**
 * Time spent in each of our own functions including everything they call: for every sample,
 * each distinct project frame on its stack gets the sample once.
 */
function inclusiveByProjectFunction(p: CpuProfile, perSample: number): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const ours = /(^|\/)(lib|db|app|components)\//;
  const out = new Map<string, number>();
  for (const id of p.samples) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (!f || !ours.test(f.url) || f.url.includes("node_modules")) continue;
      const rel = f.url.replace(/^.*?(?=(lib|db|app|components)\/)/, "");
      seen.add(`${f.functionName || "(anonymous)"}  ${rel}:${f.lineNumber + 1}`);
    }
    for (const k of seen) out.set(k, (out.get(k) ?? 0) + perSample);
  }
  return out;
}
