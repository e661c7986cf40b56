/**
 * `npm run eval` in CI: the real command with the offline model (every class right, every
 * scenario passing, no unrequested write, exit code 0); the same checks through the OpenAI
 * protocol path (the @ai-sdk/openai provider against the loopback server, answering as the
 * offline model); and a model that proposes writes nobody asked for makes the command fail.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalReport } from "@/eval/core";
import { runEval } from "@/eval/core";
import { ACTIVE_PROMPT_VERSION, SUMMARY_PROMPT } from "@/lib/ai/prompts";
import { TRIAGE_PROMPT_VERSION } from "@/lib/ai/triage-prompt";
import { resetEnv } from "@/lib/env";
import { offlineResponder } from "../helpers/offline-openai";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-eval-"));

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "eval", "--", ...args],
      {
        env: { ...process.env, OPENAI_API_KEY: "", MODEL_PROVIDER: "", ...env },
        maxBuffer: 16 * 2 ** 20,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function expectAllRight(r: EvalReport) {
  expect(r.wrong).toEqual([]);
  for (const [cls, s] of Object.entries(r.classes)) expect(s.accuracy, cls).toBe(1);
  expect(r.scenarios.filter((s) => !s.pass)).toEqual([]);
  expect(r.scenarios).toHaveLength(16);
  expect(r.unrequestedWrites).toEqual([]);
  expect(r.groups.multi_turn!.total).toBeGreaterThan(0);
  expect(r.groups.two_requests!.total).toBeGreaterThan(0);
  expect(r.perTurn.turns).toBeGreaterThan(r.cases);
  expect(r.perTurn.inputTokens).toBeGreaterThan(0);
}

describe("npm run eval", () => {
  it("passes with the offline model: JSON report, markdown, exit code 0", {
    timeout: 600_000,
  }, async () => {
    const json = path.join(dir, "offline.json");
    const run = await runCli([`--json=${json}`], {});
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const report = JSON.parse(fs.readFileSync(json, "utf8")) as EvalReport;
    expect(report.model).toEqual({ provider: "offline", id: "returns-desk-offline-1" });
    expect(report.promptVersions).toEqual({
      support: ACTIVE_PROMPT_VERSION,
      summary: SUMMARY_PROMPT.version,
      triage: TRIAGE_PROMPT_VERSION,
    });
    expectAllRight(report);
    expect(run.stdout).toContain("### offline / returns-desk-offline-1");
    expect(run.stdout).toContain("Unrequested write proposals: 0");
  });

  describe("through the OpenAI protocol (loopback server)", () => {
    let server: OpenAIServer;
    beforeAll(async () => {
      server = await startOpenAIServer(offlineResponder());
      process.env.MODEL_PROVIDER = "openai";
      process.env.OPENAI_API_KEY = "eval-key";
      process.env.OPENAI_BASE_URL = server.baseURL;
      process.env.OPENAI_MODEL = "loopback-offline";
      resetEnv();
    });
    afterAll(async () => {
      await server.close();
      for (const k of ["MODEL_PROVIDER", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"])
        delete process.env[k];
      resetEnv();
    });

    it("gets every check right, the same as the offline model", { timeout: 900_000 }, async () => {
      const report = await runEval();
      expect(report.model).toEqual({ provider: "openai", id: "loopback-offline" });
      expectAllRight(report);
      expect(server.requests.length).toBeGreaterThanOrEqual(report.perTurn.turns);
      expect(server.requests.every((r) => r.body.stream === true)).toBe(true);
    });
  });

  describe("a model that proposes writes nobody asked for", () => {
    let server: OpenAIServer;
    beforeAll(async () => {
      // Answers the first step of every turn with a return proposal for 7718.
      server = await startOpenAIServer((request) =>
        request.body.messages.at(-1)?.role === "user"
          ? {
              type: "tool-calls",
              calls: [
                {
                  name: "create_return_request",
                  arguments: { orderId: "7718", reason: "damaged", comment: null },
                },
              ],
            }
          : { type: "text", text: "Done." },
      );
    });
    afterAll(() => server.close());

    it("fails the command (exit code 1) and lists them", { timeout: 600_000 }, async () => {
      const json = path.join(dir, "writer.json");
      const run = await runCli([`--json=${json}`, "--rows=3"], {
        MODEL_PROVIDER: "openai",
        OPENAI_API_KEY: "eval-key",
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_MODEL: "eager-writer",
      });
      expect(run.code).toBe(1);
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as EvalReport;
      expect(report.unrequestedWrites.length).toBeGreaterThanOrEqual(3);
      expect(report.unrequestedWrites[0]).toMatchObject({ tool: "create_return_request" });
    });
  });
});
