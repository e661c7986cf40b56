/**
 * npm run chat -- --url http://localhost:3000 --email anna@example.com [--chat <id>] [--lang ru]
 *
 * The terminal chat. The password comes from RETURNS_DESK_PASSWORD or a hidden prompt (on a
 * terminal), or the first line of standard input when that is not a terminal.
 */
import readline from "node:readline";
import { parseArgs } from "node:util";
import { createTranslator } from "use-intl/core";
import { runConsole } from "@/cli/chat/session";
import { createApiClient } from "@/lib/api-client";
import { messagesFor } from "@/lib/i18n/messages";

const USAGE =
  "usage: npm run chat -- --url http://localhost:3000 --email anna@example.com [--chat <id>] [--lang en|ru]";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Reads a password without echoing it. */
function hiddenPrompt(question: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    let value = "";
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          process.stdout.write("\n");
          return resolve(value);
        }
        if (ch === "\u0003") {
          process.stdout.write("\n");
          process.exit(130);
        }
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const { url, email, chat, lang } = args.values;
  if (!email) fail(USAGE);
  let base: URL;
  try {
    base = new URL(url ?? "http://localhost:3000");
  } catch {
    fail(`--url is not a URL: ${url}`);
  }
  if (lang && lang !== "en" && lang !== "ru") fail("--lang is en or ru");

  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  const input = lines[Symbol.asyncIterator]();
  let password = process.env.RETURNS_DESK_PASSWORD;
  if (!password) {
    if (process.stdin.isTTY) {
      lines.pause();
      password = await hiddenPrompt("Password: ");
    } else password = (await input.next()).value ?? "";
  }

  const client = createApiClient({ baseUrl: base.origin });
  const signIn = await client.signIn(email, password ?? "");
  if (!signIn.ok) {
    fail(
      signIn.error?.message ??
        (signIn.status === 0
          ? `Could not reach ${base.origin}.`
          : `Sign-in failed (${signIn.status}).`),
    );
  }
  const role = signIn.data.user.role === "staff" ? "staff" : "customer";
  const locale = lang === "ru" ? "ru" : "en";
  const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "console" });
  process.stdout.write(`${t("signedIn", { email: signIn.data.user.email, role })}\n`);

  await runConsole({
    client,
    role,
    lang: (lang as "en" | "ru" | undefined) ?? "en",
    chatId: chat ?? null,
    io: {
      write: (text) => process.stdout.write(text),
      lines: { [Symbol.asyncIterator]: () => input },
    },
  });
  lines.close();
}

function parse() {
  return parseArgs({
    options: {
      url: { type: "string" },
      email: { type: "string" },
      chat: { type: "string" },
      lang: { type: "string" },
    },
    strict: true,
  });
}

main().catch((err: unknown) => {
  // Never a stack trace: the API's messages are printed where they arrive; this is the rest.
  fail(`The chat stopped: ${err instanceof Error ? err.message : String(err)}`);
});
