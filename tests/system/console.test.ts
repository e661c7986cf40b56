/**
 * The terminal chat (npm run chat) driven through its stdin and stdout against the real
 * production server: a return confirmed from the terminal, one cancelled in Russian, /new while
 * a card is pending, /analyze for a customer and for staff, and a wrong password. Commands must
 * never reach the model: no stored message contains one.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { DIST_DIR } from "./lib/world";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const LEAK = /\n\s+at\s|node_modules|Error:|\/work\//;

let server: Server;
let dir: string;
let dbFile: string;

type Terminal = {
  /** Everything printed so far (stdout). */
  out: () => string;
  /** Waits until stdout, from `from` on, matches; resolves with the matched text. */
  waitFor: (re: RegExp, from?: number) => Promise<string>;
  /** Types one line and returns the output position before it, to wait from. */
  type: (line: string) => number;
  exit: Promise<{ code: number | null; stderr: string }>;
  child: ChildProcess;
};

/** The terminal's locale variables (its language when there is no --lang): English by default. */
function terminalEnv(locale: Record<string, string>): NodeJS.ProcessEnv {
  const { LC_ALL: _all, LC_MESSAGES: _messages, LANG: _lang, ...rest } = process.env;
  return { ...rest, LANG: "en_US.UTF-8", ...locale };
}

function startTerminal(
  email: string,
  password = "returns-demo",
  args: string[] = [],
  locale: Record<string, string> = {},
): Terminal {
  const child = spawn(TSX, ["scripts/chat.ts", "--url", server.url, "--email", email, ...args], {
    cwd: ROOT,
    env: { ...terminalEnv(locale), RETURNS_DESK_PASSWORD: password, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters: { re: RegExp; from: number; resolve: (s: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = w.re.exec(out.slice(w.from));
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  };
  child.stdout!.setEncoding("utf8").on("data", (s: string) => {
    out += s;
    check();
  });
  child.stderr!.setEncoding("utf8").on("data", (s: string) => {
    err += s;
  });
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr: err })),
  );
  return {
    out: () => out,
    child,
    exit,
    waitFor: (re, from = 0) =>
      new Promise((resolve, reject) => {
        waiters.push({ re, from, resolve });
        check();
        // The process ending first means the text will never come: fail with what it printed.
        void exit.then(({ stderr }) =>
          reject(new Error(`exited before ${re}:\n${out}\n--- stderr\n${stderr}`)),
        );
      }),
    type: (line) => {
      const at = out.length;
      child.stdin!.write(`${line}\n`);
      return at;
    },
  };
}

/** Types a line and waits for the next prompt; returns what was printed in between. */
async function run(t: Terminal, line: string): Promise<string> {
  const from = t.type(line);
  await t.waitFor(/\n?> $/m, from + 1);
  return t.out().slice(from);
}

const storedTexts = () => {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("SELECT parts FROM messages").pluck().all() as string[];
  } finally {
    db.close();
  }
};

describe("the terminal chat", () => {
  beforeAll(async () => {
    ensureBuild(DIST_DIR);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-console-"));
    dbFile = path.join(dir, "app.db");
    server = await startServer({ distDir: DIST_DIR, dbPath: dbFile });
  }, 15 * 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("confirms a return from the terminal and prints the audit status", async () => {
    const t = startTerminal("anna@example.com");
    await t.waitFor(/Chat \S+\. Type \/help/);
    await t.waitFor(/> $/);
    expect(await run(t, "/confirm")).toContain("Nothing to decide");
    const help = await run(t, "/help");
    for (const c of ["/confirm", "/cancel", "/new", "/analyze", "/exit", "/help"])
      expect(help).toContain(c);

    const reply = await run(t, "Create a return request for order 7718. The item arrived damaged.");
    expect(reply).toMatch(/┌─+┐/);
    expect(reply).toContain("Confirm your return request");
    expect(reply).toMatch(/Order\s+7718/);
    expect(reply).toMatch(/Reason\s+Arrived damaged/);
    expect(reply).toMatch(/Refund\s+€?[\d.,]+/);
    expect(reply).toMatch(/Expires in\s+1?\d:\d\d/);

    // While the card waits, a message is refused by the server with its own words.
    expect(await run(t, "Where is order 8041?")).toContain(
      "Confirm or cancel the proposed action first.",
    );

    const confirmed = await run(t, "/confirm");
    expect(confirmed).toMatch(/Return request created\. Request ID: RR-[A-Z0-9]+\./);
    expect(confirmed).toContain("Audit status: success");
    expect(await run(t, "/confirm")).toContain("Nothing to decide");
    expect(await run(t, "/analyze")).toContain("/analyze is for support staff only.");
    expect(await run(t, "/frobnicate")).toContain("Unknown command /frobnicate");

    t.type("/exit");
    const { code, stderr } = await t.exit;
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(t.out()).not.toMatch(LEAK);
  });

  it("cancels in Russian, and /new withdraws a pending card", async () => {
    const t = startTerminal("boris@example.com");
    await t.waitFor(/> $/);
    const card = await run(t, "Оформите возврат заказа 4410, товар пришёл повреждённым.");
    expect(card).toContain("Подтвердите заявку на возврат");
    expect(card).toMatch(/Истекает через\s+1?\d:\d\d/);
    const cancelled = await run(t, "/cancel");
    expect(cancelled).toContain("Вы отказались от этого запроса, поэтому ничего не сделано.");
    expect(cancelled).toContain("Статус аудита: cancelled");
    expect(await run(t, "/cancel")).toContain("Нечего решать");

    expect(await run(t, "Оформите возврат заказа 4410, товар пришёл повреждённым.")).toContain(
      "Подтвердите заявку на возврат",
    );
    const fresh = await run(t, "/new");
    expect(fresh).toMatch(/Начат новый диалог/);
    expect(fresh).toContain("Ожидавшее предложение отозвано");
    expect(await run(t, "/confirm")).toContain("Нечего решать");

    t.child.stdin!.end();
    expect((await t.exit).code).toBe(0);
    expect(t.out()).not.toMatch(LEAK);
  });

  it("analyses a chat for staff, by id", async () => {
    const db = new Database(dbFile, { readonly: true });
    const chatId = db
      .prepare(
        "SELECT c.id FROM chats c JOIN user u ON u.id = c.user_id WHERE u.email = ? ORDER BY c.created_at LIMIT 1",
      )
      .pluck()
      .get("anna@example.com") as string;
    db.close();
    const t = startTerminal("staff@example.com");
    await t.waitFor(/> $/);
    expect(await run(t, "/analyze")).toContain("Which chat?");
    const analysis = await run(t, `/analyze ${chatId}`);
    expect(analysis).toContain(`Analysis of chat ${chatId}`);
    expect(analysis).toMatch(/Category: return_request/);
    expect(analysis).toMatch(/Urgency: (low|medium|high)/);
    expect(analysis).toMatch(/Summary: \S/);
    expect(analysis).toMatch(/Next step: \S/);
    expect(await run(t, "/analyze no-such-chat")).toContain("No such chat.");
    t.type("/exit");
    expect((await t.exit).code).toBe(0);
  });

  it("never sends a command to the model", () => {
    const stored = storedTexts().join("\n");
    expect(stored).toContain("7718");
    expect(stored).not.toMatch(/"\/(confirm|cancel|new|help|analyze|exit|frobnicate)\b/);
  });

  it("refuses a wrong password in the terminal's language, with no stack trace", async () => {
    const en = startTerminal("anna@example.com", "not-the-password");
    const { code, stderr } = await en.exit;
    expect(code).toBe(1);
    expect(stderr).toBe("Wrong email or password.\n");
    expect(stderr + en.out()).not.toMatch(LEAK);

    // No --lang: a Russian terminal gets Russian from the first line on.
    const ru = startTerminal("anna@example.com", "not-the-password", [], { LANG: "ru_RU.UTF-8" });
    expect((await ru.exit).stderr).toBe("Неверная почта или пароль.\n");
    const usage = startTerminal("", "x", ["--lang", "ru"]);
    expect((await usage.exit).stderr).toMatch(/^как запустить: npm run chat/);
    const badLang = startTerminal("anna@example.com", "x", ["--lang", "de"], {
      LC_ALL: "ru_RU.UTF-8",
    });
    expect(await badLang.exit).toEqual({ code: 1, stderr: "--lang принимает en или ru\n" });
  });

  it("prints a cancellation's refund as processing at /confirm, then refunded when it settles", async () => {
    const t = startTerminal("anna@example.com");
    await t.waitFor(/> $/);
    const card = await run(t, "I ordered it by mistake, please cancel 3004");
    expect(card).toContain("Confirm the cancellation of order 3004");
    const from = t.type("/confirm");
    // The confirm answers with the refund as its transaction stored it; the terminal follows the
    // action (GET /api/actions/{id}) and prints the settled note when the relay is done.
    await t.waitFor(/Refund of €45\.00: refunded\. Cancellation ID: CN-[A-Z0-9]+\.\n> $/, from);
    expect(t.out().slice(from)).toMatch(
      /^Order 3004 is cancelled\. Refund of €45\.00: processing\. Cancellation ID: (CN-[A-Z0-9]+)\.\nAudit status: success\n> \nOrder 3004 is cancelled\. Refund of €45\.00: refunded\. Cancellation ID: \1\.\n> $/,
    );
    // Settled: nothing more is polled or printed; the console goes on as before.
    expect(await run(t, "/confirm")).toContain("Nothing to decide");
    t.type("/exit");
    const { code, stderr } = await t.exit;
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(t.out()).not.toMatch(LEAK);
  });

  it("in Russian: «в обработке», then «деньги возвращены»", async () => {
    const t = startTerminal("boris@example.com", "returns-demo", ["--lang", "ru"]);
    await t.waitFor(/> $/);
    expect(await run(t, "Отмените заказ 1187, пожалуйста")).toContain(
      "Подтвердите отмену заказа 1187",
    );
    const from = t.type("/confirm");
    await t.waitFor(
      /Возврат 43,90\s€: деньги возвращены\. Номер отмены: CN-[A-Z0-9]+\.\n> $/,
      from,
    );
    expect(t.out().slice(from)).toMatch(
      /^Заказ 1187 отменён\. Возврат 43,90\s€: в обработке\. Номер отмены: CN-[A-Z0-9]+\.\nСтатус аудита: success\n/,
    );
    t.type("/exit");
    expect((await t.exit).code).toBe(0);
  });

  it("speaks the language saved on the account when there is no --lang", async () => {
    // Boris picks Russian in the browser's header; the terminal (English) follows the account.
    const db = new Database(dbFile);
    try {
      db.prepare("UPDATE user SET locale = 'ru' WHERE email = 'boris@example.com'").run();
    } finally {
      db.close();
    }
    const t = startTerminal("boris@example.com");
    await t.waitFor(/Вы вошли как boris@example\.com \(покупатель\)/);
    await t.waitFor(/Введите \/help/);
    t.type("/exit");
    expect((await t.exit).code).toBe(0);
  });
});
