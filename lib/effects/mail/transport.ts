/**
 * How a customer email leaves: over SMTP through nodemailer when SMTP_URL is set, else as an
 * .eml file under MAIL_DIR (the embedded default, `npm start` offline). Both go through the same
 * outbox, relay, states and audit as a refund (docs/effects.md, "Email").
 *
 * The Message-ID is derived from the effect's idempotency key, so a resend after an unknown
 * outcome is the same message to the receiving side and can be recognised there.
 *
 * SMTP has no idempotency and no way to ask a server what it delivered, so after an unknown
 * outcome (timeout, dropped connection, 4xx, a relay killed mid-send) the relay sends again: at
 * least once. The file transport can be asked (the file exists or not): exactly once.
 */
import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";
import type { LookupOutcome, SendOutcome } from "../providers/types";
import type { RenderedMail } from "./render";

export type OutgoingMail = RenderedMail & { to: string; key: string };

export type MailTransport = {
  name: "smtp" | "file";
  send(mail: OutgoingMail): Promise<SendOutcome>;
  find(mail: Pick<OutgoingMail, "key">): Promise<LookupOutcome>;
};

/** The address part of MAIL_FROM (`Name <a@b>` or `a@b`). */
function fromAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** `<rd-<action>-mail.kind@domain>`: one Message-ID per effect key, whichever relay sends it. */
export function messageIdFor(key: string, from = env().MAIL_FROM): string {
  const domain = fromAddress(from).split("@")[1] || "returns-desk.localhost";
  return `<${key.replace(/[^A-Za-z0-9._-]/g, "_")}@${domain}>`;
}

function message(mail: OutgoingMail) {
  return {
    from: env().MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: messageIdFor(mail.key),
    headers: { "X-Returns-Desk-Effect": mail.key },
  };
}

/** A file name that is the key and nothing else (keys are rd-<uuid>-mail.<kind>). */
const fileFor = (dir: string, key: string) =>
  path.join(dir, `${key.replace(/[^A-Za-z0-9._-]/g, "_")}.eml`);

export function fileTransport(dir: string): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    name: "file",
    async send(mail) {
      try {
        const file = fileFor(dir, mail.key);
        await fs.mkdir(dir, { recursive: true });
        const info = await builder.sendMail(message(mail));
        // Written under a temporary name and renamed: a reader (or a lookup) never sees half a
        // message, and a second attempt replaces the file with the same message.
        const tmp = `${file}.${process.pid}.tmp`;
        await fs.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
        await fs.rename(tmp, file);
        return { kind: "succeeded", providerRef: path.basename(file) };
      } catch {
        return { kind: "indeterminate", code: "mail_dir_unavailable" };
      }
    },
    async find(mail) {
      const file = fileFor(dir, mail.key);
      try {
        await fs.access(file);
        return { kind: "found", providerRef: path.basename(file) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "absent" };
        return { kind: "indeterminate", code: "mail_dir_unavailable" };
      }
    },
  };
}

/** Which SMTP failures are final (the server refused for good) and which leave it unknown. */
export function classifySmtpError(err: unknown): SendOutcome {
  const e = err as { responseCode?: number; code?: string };
  if (typeof e.responseCode === "number") {
    // 5xx: the server answered and refused (no such mailbox, bad credentials): not retried.
    if (e.responseCode >= 500) return { kind: "definite", code: `smtp_${e.responseCode}` };
    return { kind: "indeterminate", code: `smtp_${e.responseCode}` };
  }
  if (e.code === "ETIMEDOUT") return { kind: "indeterminate", code: "timeout" };
  return { kind: "indeterminate", code: "connection_error" };
}

export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const u = new URL(url);
  const secure = u.protocol === "smtps:";
  const transporter: Transporter = nodemailer.createTransport({
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username
      ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }
      : undefined,
    // Every phase is bounded, so an attempt ends well inside the relay's lease.
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: "smtp",
    async send(mail) {
      try {
        const info = await transporter.sendMail(message(mail));
        // Stryker disable next-line ArrayDeclaration: nodemailer's SMTP transport always reports the refused recipients as an array, empty when none; the fallback is never used
        if ((info.rejected ?? []).length > 0) return { kind: "definite", code: "smtp_rejected" };
        return { kind: "succeeded", providerRef: info.messageId };
      } catch (err) {
        return classifySmtpError(err);
      }
    },
    // An SMTP server cannot be asked what it delivered: "absent" makes the relay send again
    // after an unknown outcome (at least once; the same Message-ID marks the duplicate).
    async find() {
      return { kind: "absent" };
    },
  };
}

let cached: { key: string; transport: MailTransport } | undefined;

/** This process's transport, built once per configuration (tests switch it between files). */
export function mailTransport(): MailTransport {
  const e = env();
  const timeoutMs = Math.min(30_000, Math.floor((e.EFFECTS_LEASE_SECONDS * 1000) / 3));
  const key = `${e.SMTP_URL ?? ""}|${e.MAIL_DIR}|${timeoutMs}`;
  if (cached?.key !== key) {
    cached = {
      key,
      transport: e.SMTP_URL ? smtpTransport(e.SMTP_URL, timeoutMs) : fileTransport(e.MAIL_DIR),
    };
  }
  return cached.transport;
}
