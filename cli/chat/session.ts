/**
 * The terminal chat: the source course's console over the HTTP API. Lines that start with "/"
 * are commands handled here (they never reach the model); everything else is a chat message
 * whose reply is printed as it streams. Output follows the customer's language.
 */
import { createTranslator } from "use-intl/core";
import type { ApiClient, ApiFailure } from "@/lib/api-client";
import { describeOutcome, outcomeFromStatus } from "@/lib/chat-client/action-view";
import { parseCommand } from "@/lib/chat-client/commands";
import { followApproval, followOutcome, isUnsettled } from "@/lib/chat-client/follow";
import { announcedHandoff, followHandoff } from "@/lib/chat-client/handoff";
import { chatLanguage } from "@/lib/chat-client/messages";
import type { ChatMessage, PendingAction } from "@/lib/chat-client/schemas";
import { conversationText, messagesFor } from "@/lib/i18n/messages";
import { detectLanguage, type Locale } from "@/lib/text/language";
import { renderCard } from "./card";
import { terminalText } from "./terminal";

export type ConsoleIO = {
  /** Raw text, no newline added (streamed replies). */
  write: (text: string) => void;
  /** Lines typed by the user, one at a time; ends at EOF. */
  lines: AsyncIterable<string>;
};

type Role = "customer" | "staff";

type State = {
  role: Role;
  lang: Locale;
  chatId: string | null;
  /** The last chat /analyze looked at (staff have no chat of their own). */
  analyzed: string | null;
};

const PROMPT = "> ";

/** The API's own message; the client never shows a stack trace. */
function apiMessage(r: ApiFailure): string {
  if (r.error?.message) return r.error.message;
  if (r.status === 0) return "Could not reach the server.";
  return `The server answered ${r.status} with nothing this client can read.`;
}

function messageText(m: ChatMessage | null): string {
  if (!m) return "";
  return m.parts.map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join("");
}

export async function runConsole({
  client,
  io,
  role,
  lang = "en",
  chatId = null,
}: {
  client: ApiClient;
  io: ConsoleIO;
  role: Role;
  lang?: Locale;
  /** Continue this chat instead of starting a new one. */
  chatId?: string | null;
}): Promise<void> {
  // Everything printed goes through terminalText(): the model's text may carry escape sequences.
  const out = { write: (text: string) => io.write(terminalText(text)) };
  const state: State = { role, lang, chatId: null, analyzed: null };
  const say = (...lines: string[]) => out.write(`${lines.join("\n")}\n`);
  // A refund settling after its confirm is printed when it arrives: at once if the prompt is
  // waiting for input (then the prompt again), else just before the next prompt, never into the
  // middle of a streamed reply.
  let atPrompt = false;
  const later: string[] = [];
  const followers = new Set<() => void>();
  const prompt = () => {
    for (const line of later.splice(0)) say(line);
    out.write(PROMPT);
    atPrompt = true;
  };
  const notify = (line: string) => {
    if (atPrompt) out.write(`\n${line}\n${PROMPT}`);
    else later.push(line);
  };
  // The console's texts (messages/<lang>.json, `console`), and the browser composer's where both
  // say the same; both follow the customer's language.
  let t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "console" });
  let tCommands = createTranslator({
    locale: lang,
    messages: messagesFor(lang),
    namespace: "conversation.commands",
  });
  function speak(next: Locale) {
    state.lang = next;
    t = createTranslator({ locale: next, messages: messagesFor(next), namespace: "console" });
    tCommands = createTranslator({
      locale: next,
      messages: messagesFor(next),
      namespace: "conversation.commands",
    });
  }

  if (role === "customer") {
    if (chatId) {
      const r = await client.getChat(chatId);
      if (!r.ok) return say(apiMessage(r));
      state.chatId = chatId;
      if (r.data.messages.length > 0) speak(chatLanguage(r.data.messages));
      say(t("chatStarted", { id: chatId }));
      if (r.data.pendingAction) say(renderCard(r.data.pendingAction, state.lang));
      if (r.data.chat.handoff) {
        say(t("handoffWaiting"));
        followStaff(r.data.messages.map((m) => m.id));
      }
    } else {
      const r = await client.createChat();
      if (!r.ok) return say(apiMessage(r));
      state.chatId = r.data.id;
      say(t("chatStarted", { id: r.data.id }));
    }
  } else say(t("staffChats"));

  /** This chat's action waiting for a decision, as the server has it now. */
  async function pendingNow(): Promise<PendingAction | null | ApiFailure> {
    if (!state.chatId) return null;
    const r = await client.getChat(state.chatId);
    return r.ok ? r.data.pendingAction : r;
  }

  async function decide(verb: "confirm" | "cancel"): Promise<void> {
    const pending = await pendingNow();
    if (pending && "ok" in pending) return say(apiMessage(pending));
    if (!pending) return say(tCommands("nothingToDecide"));
    if (verb === "confirm") {
      const r = await client.confirmAction(pending.id);
      if (!r.ok) return say(apiMessage(r));
      const waiting = r.data.action.status === "awaiting_approval";
      const outcome = describeOutcome(
        waiting
          ? { kind: "awaiting_approval" }
          : { kind: "executed", note: r.data.action.view.outcome },
        conversationText(state.lang),
      );
      say(outcome.text, t("auditStatus", { status: r.data.audit?.status ?? "-" }));
      // Above the approval threshold: staff decide; their decision is printed when it comes.
      if (waiting) followApprovalDecision(r.data.action.id);
      else if (isUnsettled(r.data.action.view.outcome)) follow(r.data.action.id);
    } else {
      const r = await client.cancelAction(pending.id);
      if (!r.ok) return say(apiMessage(r));
      const outcome = describeOutcome({ kind: "cancelled" }, conversationText(state.lang));
      say(outcome.text, t("auditStatus", { status: r.data.audit?.status ?? "-" }));
    }
  }

  /** Polls the action until its note settles (a refund: refunded or failed), then prints it. */
  function follow(actionId: string): void {
    const stop = followOutcome({
      load: () => client.getAction(actionId),
      onNote: (note) => {
        if (!note.settled) return;
        followers.delete(stop);
        notify(note.text);
      },
    });
    followers.add(stop);
  }

  /**
   * A person has the chat: their replies (and the hand-back) arrive without a turn, so the chat
   * is polled (lib/chat-client/handoff.ts) and each new one printed, like a settled refund.
   * `seen`: the messages already on screen.
   */
  let stopStaff: (() => void) | null = null;
  function followStaff(seen: string[]): void {
    if (stopStaff || !state.chatId) return;
    const printed = new Set(seen);
    const chatId = state.chatId;
    const stop = followHandoff({
      load: () => client.getChat(chatId),
      onSnapshot: (s) => {
        for (const m of s.messages) {
          if (printed.has(m.id)) continue;
          printed.add(m.id);
          const staff = m.parts.find((p) => p.type === "data-staff");
          if (staff) notify(t("staffReply", { name: staff.data.name, text: messageText(m) }));
          else if (announcedHandoff(m.parts) === "released") notify(messageText(m));
        }
        if (!s.chat.handoff) {
          followers.delete(stop);
          stopStaff = null;
        }
      },
    });
    stopStaff = stop;
    followers.add(stop);
  }

  /** Polls an action that waits for staff approval until they decide, then prints how. */
  function followApprovalDecision(actionId: string): void {
    const stop = followApproval({
      load: () => client.getAction(actionId),
      onDecided: (a) => {
        followers.delete(stop);
        const outcome = outcomeFromStatus(a.status, a.view.outcome, a);
        if (outcome) notify(describeOutcome(outcome, conversationText(state.lang)).text);
        if (a.status === "executed" && isUnsettled(a.view.outcome)) follow(actionId);
      },
    });
    followers.add(stop);
  }

  async function newChat(): Promise<void> {
    const before = await pendingNow();
    const r = await client.createChat();
    if (!r.ok) return say(apiMessage(r));
    stopStaff?.();
    stopStaff = null;
    state.chatId = r.data.id;
    say(t("newChat", { id: r.data.id }));
    // Starting a chat supersedes what was pending in the others (docs/api.md), so say so.
    if (before && !("ok" in before)) say(t("withdrawn"));
  }

  async function analyze(arg: string | null): Promise<void> {
    if (state.role !== "staff") return say(t("staffOnly"));
    const chat = arg ?? state.analyzed;
    if (!chat) return say(t("analyzeWhich"));
    const r = await client.triageChat(chat);
    if (!r.ok) return say(apiMessage(r));
    state.analyzed = chat;
    const a = r.data.triage.triage;
    say(
      t("analysis.title", { id: chat }),
      `  ${t("analysis.category")}: ${a.category}`,
      `  ${t("analysis.urgency")}: ${a.urgency}`,
      `  ${t("analysis.sentiment")}: ${a.sentiment}`,
      `  ${t("analysis.summary")}: ${a.summary}`,
      `  ${t("analysis.nextStep")}: ${a.nextStep}`,
    );
  }

  async function chat(text: string): Promise<void> {
    if (state.role !== "customer" || !state.chatId) return say(t("staffChats"));
    speak(detectLanguage(text) ?? state.lang);
    let printed = "";
    const r = await client.sendMessage(state.chatId, text, {
      onUpdate: (m) => {
        const now = messageText(m);
        if (now.startsWith(printed) && now.length > printed.length) {
          out.write(now.slice(printed.length));
          printed = now;
        }
      },
    });
    if (printed) out.write("\n");
    if (!r.ok) {
      // Overload is the one refusal said in the customer's language here: it asks them to wait
      // and send the same text again, which the API's English message cannot time for them.
      if (r.error?.code === "overloaded")
        return say(t("overloaded", { seconds: r.error.retryAfterSeconds ?? 5 }));
      say(apiMessage(r));
      if (r.error?.code === "action_pending") say(t("onlyCommands"));
      return;
    }
    // Text the reader rebuilt differently (rare) is printed whole rather than lost.
    const final = messageText(r.data.message);
    if (!final.startsWith(printed)) say(final);
    if (r.data.errorText) say(t("modelFailed", { text: r.data.errorText }));
    if (r.data.pendingAction) say(renderCard(r.data.pendingAction, state.lang));
    if (r.data.message && announcedHandoff(r.data.message.parts) === "waiting" && !stopStaff) {
      // What is on screen now is not news: only what staff write from here on is printed.
      const now = await client.getChat(state.chatId);
      followStaff(now.ok ? now.data.messages.map((m) => m.id) : []);
    }
  }

  prompt();
  for await (const raw of io.lines) {
    atPrompt = false;
    const line = raw.trim();
    if (line !== "") {
      const cmd = parseCommand(line);
      if (cmd?.kind === "unknown") say(t("unknown", { command: cmd.word }));
      else if (cmd?.kind === "command") {
        if (cmd.name === "exit") break;
        if (cmd.name === "help") say(t("help"));
        if (cmd.name === "confirm" || cmd.name === "cancel") await decide(cmd.name);
        if (cmd.name === "new") await newChat();
        if (cmd.name === "analyze") await analyze(cmd.arg);
      } else await chat(line);
    }
    prompt();
  }
  atPrompt = false;
  for (const stop of followers) stop();
  say("", t("bye"));
}
