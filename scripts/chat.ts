/**
 * npm run chat -- --url http://localhost:3000 --email anna@example.com [--chat <id>] [--lang ru]
 *
 * The terminal chat. The password comes from RETURNS_DESK_PASSWORD or a hidden prompt (on a
 * terminal), or the first line of standard input when that is not a terminal.
 *
 * Its language is --lang, else the terminal's own (LC_ALL / LC_MESSAGES / LANG, as Node's ICU
 * reads them), from the first line it prints: the usage, the password prompt and a failed
 * sign-in too.
 */
import readline from "node:readline";
import { parseArgs } from "node:util";
import { createTranslator } from "use-intl/core";
import { runConsole } from "@/cli/chat/session";
import { hiddenPrompt } from "@/cli/hidden-prompt";
import { createApiClient } from "@/lib/api-client";
import { isLocale, type Locale, resolveLocale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

/** The terminal's language, matched against ours like a browser's Accept-Language. */
const systemLocale = (): Locale =>
  resolveLocale({ acceptLanguage: Intl.DateTimeFormat().resolvedOptions().locale });

let locale: Locale = systemLocale();
// Rebound (with the same literal namespace) when --lang or the account picks another language.
let t = createTranslator({ locale, messages: messagesFor(locale), namespace: "console" });

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (err) {
    // node:util's own text names the option; the line under it is ours.
    fail(`${(err as Error).message}\n${t("usage")}`);
  }
  const { url, email, chat, lang } = args.values;
  if (lang !== undefined) {
    if (!isLocale(lang)) fail(t("badLang"));
    locale = lang;
    t = createTranslator({ locale, messages: messagesFor(locale), namespace: "console" });
  }
  if (!email) fail(t("usage"));
  let base: URL;
  try {
    base = new URL(url ?? "http://localhost:3000");
  } catch {
    fail(t("badUrl", { url: String(url) }));
  }

  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  const input = lines[Symbol.asyncIterator]();
  let password = process.env.RETURNS_DESK_PASSWORD;
  if (!password) {
    if (process.stdin.isTTY) {
      lines.pause();
      password = await hiddenPrompt(t("password"));
    } else password = (await input.next()).value ?? "";
  }

  const client = createApiClient({ baseUrl: base.origin });
  const signIn = await client.signIn(email, password ?? "");
  if (!signIn.ok) {
    // better-auth's own messages are English only; the status says enough, as in the browser.
    fail(
      signIn.status === 0
        ? t("unreachable", { url: base.origin })
        : signIn.status === 401
          ? t("wrongPassword")
          : signIn.status === 429
            ? t("tooMany")
            : t("signInFailed", { status: signIn.status }),
    );
  }
  const role = signIn.data.user.role === "staff" ? "staff" : "customer";
  // Without --lang, the language saved on the account (the header's switch) wins over the
  // terminal's, as it does in the browser.
  const saved = signIn.data.user.locale;
  if (lang === undefined && isLocale(saved) && saved !== locale) {
    locale = saved;
    t = createTranslator({ locale, messages: messagesFor(locale), namespace: "console" });
  }
  process.stdout.write(`${t("signedIn", { email: signIn.data.user.email, role })}\n`);

  await runConsole({
    client,
    role,
    lang: locale,
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
  fail(t("stopped", { reason: err instanceof Error ? err.message : String(err) }));
});
