/**
 * `npm start` ends in one server process: after the build check, scripts/start.mjs
 * validates the environment and then serves from its own process. No `next start`, no npx, no
 * second node process: the process npm started is the one listening, signals reach it, and a
 * SIGTERM lets a chat turn in flight finish, and sends the traces still batched, before the process
 * leaves with exit code 0.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, freePort, startFlags } from "@/bench/lib/server";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every descendant of `pid` (from /proc), with its command line. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may contain spaces and parentheses: ppid is the 2nd field after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      let cmd = "";
      try {
        cmd = fs.readFileSync(`/proc/${c}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      } catch {
        continue;
      }
      out.push({ pid: c, cmd });
      walk(c);
    }
  };
  walk(pid);
  return out;
}

let npm: ChildProcess;
/** A loopback OTLP/HTTP receiver: the span names it got. */
const spans: string[] = [];
let otlp: http.Server;
/** The model answers slowly (a word every 40 ms), so a turn is surely in flight at the signal. */
let model: OpenAIServer;
let url: string;
let output = "";
let exited: Promise<number | string | null>;

beforeAll(async () => {
  ensureBuild(".next");
  model = await startOpenAIServer([
    { type: "text", text: "I can look up orders and help with returns, slowly.", delayMs: 40 },
  ]);
  otlp = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      resourceSpans?: { scopeSpans?: { spans?: { name: string }[] }[] }[];
    };
    for (const r of body.resourceSpans ?? [])
      for (const sc of r.scopeSpans ?? []) for (const sp of sc.spans ?? []) spans.push(sp.name);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((r) => otlp.listen(0, "127.0.0.1", r));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-one-"));
  npm = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "app.db"),
      MODEL_PROVIDER: "openai",
      OPENAI_API_KEY: "test",
      OPENAI_BASE_URL: model.baseURL,
      // Tracing on, with a batch delay longer than the test: spans reach the receiver only
      // through the flush at shutdown.
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlp.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "600000",
    },
  });
  npm.stdout?.on("data", (d) => {
    output += d;
  });
  npm.stderr?.on("data", (d) => {
    output += d;
  });
  exited = new Promise((resolve) => npm.once("exit", (code, signal) => resolve(code ?? signal)));
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (npm.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm start did not come up:\n${output}`);
}, 600_000);

afterAll(async () => {
  await model?.close();
  await new Promise((r) => otlp?.close(r));
  for (const p of descendants(npm.pid!)) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  npm.kill("SIGKILL");
});

describe("npm start", () => {
  it("serves from one node process, with nothing between npm and it but a shell", async () => {
    const tree = descendants(npm.pid!);
    const nodes = tree.filter((p) => /(^|\/)node$/.test(p.cmd.split(" ")[0] ?? ""));
    expect(
      nodes.map((p) => p.cmd),
      output,
    ).toEqual([expect.stringMatching(/scripts\/start\.mjs$/)]);
    // Under package.json's node flags (the memory settings, README "Memory").
    expect(startFlags().length).toBeGreaterThan(0);
    expect(nodes[0]?.cmd).toContain(`node ${startFlags().join(" ")} scripts/start.mjs`);
    // No npx, no `next start`, no next-server child.
    expect(tree.map((p) => p.cmd).join("\n")).not.toMatch(/npx|next start|next-server/);
  });

  it("stops on SIGTERM after the chat turn in flight is answered, with exit code 0", async () => {
    // package.json's start script puts node flags (the memory settings) before the script.
    const server = descendants(npm.pid!).find((p) =>
      /^\S*node(?: --\S+)* scripts\/start\.mjs$/.test(p.cmd),
    )!;
    const headers = { "content-type": "application/json", origin: url };
    const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "anna@example.com", password: "returns-demo" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const chat = await fetch(`${url}/api/chats`, {
      method: "POST",
      headers: { ...headers, cookie },
    });
    const { chat: created } = (await chat.json()) as { chat: { id: string } };
    const turn = fetch(`${url}/api/chats/${created.id}/messages`, {
      method: "POST",
      headers: { ...headers, cookie },
      body: JSON.stringify({ text: "Hello, what can you do?" }),
    });
    // The model has the request: the turn is in flight now (no timing guess).
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    process.kill(server.pid, "SIGTERM");
    const res = await turn;
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(`"delta":"slowly."`);
    expect(body).toContain(`"type":"finish"`);
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    // The turn's trace was still batched at the signal: the stop flushed it.
    expect(spans).toContain("chat.turn");
  });
});
