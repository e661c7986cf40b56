/**
 * How a mail leaves, without the relay around it: the file transport's message on disk (its
 * Message-ID, its effect header, a private file), its lookup (found, absent, and a directory it
 * cannot read, which is not "absent"), the SMTP errors that are final and those that leave the
 * outcome unknown, and the transport built once per configuration. SMTP end to end, with a real
 * server, is in mail-and-receive.test.ts.
 */
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  classifySmtpError,
  fileTransport,
  mailTransport,
  messageIdFor,
  type OutgoingMail,
  smtpTransport,
} from "@/lib/effects/mail/transport";
import { resetEnv } from "@/lib/env";

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "rd-mail-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const mail = (key: string): OutgoingMail => ({
  key,
  to: "anna@example.com",
  subject: "Your refund",
  text: "Refunded.",
  html: "<p>Refunded.</p>",
});

describe("the Message-ID", () => {
  it("is the key at MAIL_FROM's domain, in any of its forms", () => {
    expect(messageIdFor("rd-1-mail.refund", "Returns Desk <help@shop.example>")).toBe(
      "<rd-1-mail.refund@shop.example>",
    );
    expect(messageIdFor("rd-1-mail.refund", "help@shop.example")).toBe(
      "<rd-1-mail.refund@shop.example>",
    );
    expect(messageIdFor("rd-1-mail.refund", "Desk < help@spaced.example >")).toBe(
      "<rd-1-mail.refund@spaced.example>",
    );
    expect(messageIdFor("rd-1-mail.refund", "  help@trimmed.example  ")).toBe(
      "<rd-1-mail.refund@trimmed.example>",
    );
    // No domain to borrow: a local one, never an empty one.
    expect(messageIdFor("k", "Returns Desk")).toBe("<k@returns-desk.localhost>");
  });

  it("keeps only safe characters of the key", () => {
    expect(messageIdFor("a b<c>@d/é", "x@y.example")).toBe("<a_b_c__d__@y.example>");
  });
});

describe("the file transport", () => {
  it("writes one private .eml per key, with the Message-ID and the effect's header, and finds it", async () => {
    const t = fileTransport(dir);
    expect(t.name).toBe("file");
    const key = "rd-0001-mail.refund_succeeded";
    expect(await t.find({ key })).toEqual({ kind: "absent" });
    expect(await t.send(mail(key))).toEqual({ kind: "succeeded", providerRef: `${key}.eml` });
    const file = path.join(dir, `${key}.eml`);
    const text = await fs.readFile(file, "utf8");
    expect(text).toContain(`X-Returns-Desk-Effect: ${key}`);
    expect(text).toMatch(new RegExp(`Message-ID: <${key.replace(/\./g, "\\.")}@`, "i"));
    expect(text).toContain("Subject: Your refund");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await t.find({ key })).toEqual({ kind: "found", providerRef: `${key}.eml` });
    // Sent again (an attempt whose outcome was lost): the same one file, no temporary left.
    expect(await t.send(mail(key))).toEqual({ kind: "succeeded", providerRef: `${key}.eml` });
    expect((await fs.readdir(dir)).filter((f) => f.startsWith(key))).toEqual([`${key}.eml`]);
  });

  it("a file name is the key and nothing else, whatever the key holds", async () => {
    const t = fileTransport(dir);
    expect(await t.send(mail("../../escape me"))).toEqual({
      kind: "succeeded",
      providerRef: ".._.._escape_me.eml",
    });
    expect(await fs.readdir(dir)).toContain(".._.._escape_me.eml");
  });

  it("a directory it cannot use is an unknown outcome, for the send and for the lookup", async () => {
    const blocker = path.join(dir, "not-a-directory");
    await fs.writeFile(blocker, "");
    const t = fileTransport(path.join(blocker, "mail"));
    expect(await t.send(mail("k1"))).toEqual({
      kind: "indeterminate",
      code: "mail_dir_unavailable",
    });
    // ENOTDIR, not ENOENT: the file may well exist somewhere we cannot see, so not "absent".
    expect(await t.find({ key: "k1" })).toEqual({
      kind: "indeterminate",
      code: "mail_dir_unavailable",
    });
  });
});

describe("SMTP errors", () => {
  it("5xx is final; 4xx, a timeout and a dropped connection leave it unknown", () => {
    expect(classifySmtpError({ responseCode: 550 })).toEqual({
      kind: "definite",
      code: "smtp_550",
    });
    expect(classifySmtpError({ responseCode: 500 })).toEqual({
      kind: "definite",
      code: "smtp_500",
    });
    expect(classifySmtpError({ responseCode: 451 })).toEqual({
      kind: "indeterminate",
      code: "smtp_451",
    });
    expect(classifySmtpError({ code: "ETIMEDOUT" })).toEqual({
      kind: "indeterminate",
      code: "timeout",
    });
    expect(classifySmtpError({ code: "ECONNRESET" })).toEqual({
      kind: "indeterminate",
      code: "connection_error",
    });
    expect(classifySmtpError(new Error("odd"))).toEqual({
      kind: "indeterminate",
      code: "connection_error",
    });
  });

  it("SMTP cannot be asked what it delivered: the lookup is always absent", async () => {
    const t = smtpTransport("smtp://127.0.0.1:1", 100);
    expect(t.name).toBe("smtp");
    expect(await t.find({ key: "k" })).toEqual({ kind: "absent" });
  });
});

describe("this process's transport", () => {
  it("is built once per configuration, and again when it changes", () => {
    const saved = { MAIL_DIR: process.env.MAIL_DIR, SMTP_URL: process.env.SMTP_URL };
    try {
      delete process.env.SMTP_URL;
      process.env.MAIL_DIR = path.join(dir, "a");
      resetEnv();
      const a = mailTransport();
      expect(a.name).toBe("file");
      expect(mailTransport()).toBe(a);
      process.env.MAIL_DIR = path.join(dir, "b");
      resetEnv();
      const b = mailTransport();
      expect(b).not.toBe(a);
      process.env.SMTP_URL = "smtp://127.0.0.1:2525";
      resetEnv();
      expect(mailTransport().name).toBe("smtp");
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnv();
    }
  });
});

/** A real SMTP server that refuses one mailbox and keeps what it accepted. */
async function smtpServer() {
  const got: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address === "gone@example.com") {
        cb(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
      } else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        got.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    got,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the SMTP transport against a server", () => {
  it("a delivered mail's reference is its Message-ID; a refused recipient is final", async () => {
    const server = await smtpServer();
    try {
      const t = smtpTransport(server.url, 2000);
      const key = "rd-0002-mail.refund_failed";
      const sent = await t.send(mail(key));
      expect(sent).toEqual({ kind: "succeeded", providerRef: messageIdFor(key) });
      expect(server.got).toHaveLength(1);
      expect(server.got[0]!.to).toEqual(["anna@example.com"]);
      expect(server.got[0]!.raw).toContain(`X-Returns-Desk-Effect: ${key}`);
      // One of two mailboxes refused: the server answered for good, so the mail is not retried.
      const partly = await t.send({
        ...mail("rd-0003-mail.refund_failed"),
        to: "anna@example.com, gone@example.com",
      });
      expect(partly).toEqual({ kind: "definite", code: "smtp_rejected" });
    } finally {
      await server.close();
    }
  });

  it("smtps:// speaks TLS from the first byte; smtp:// waits for the server's greeting", async () => {
    // A server that says nothing and records what the client sends first.
    const first: Buffer[] = [];
    const silent = net.createServer((socket) => {
      socket.once("data", (b: Buffer) => first.push(b));
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const plain = await smtpTransport(`smtp://127.0.0.1:${port}`, 300).send(mail("k-plain"));
      expect(plain.kind).toBe("indeterminate");
      expect(first).toEqual([]);
      const tls = await smtpTransport(`smtps://127.0.0.1:${port}`, 300).send(mail("k-tls"));
      expect(tls.kind).toBe("indeterminate");
      // 0x16: a TLS handshake record, the ClientHello; nothing of the mail in clear.
      expect(first[0]?.[0]).toBe(0x16);
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("this process's transport, per configuration", () => {
  const withEnv = (vars: Record<string, string | undefined>, fn: () => void | Promise<void>) => {
    const keys = ["MAIL_DIR", "SMTP_URL", "EFFECTS_LEASE_SECONDS", "STRIPE_TIMEOUT_MS"];
    const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
    const set = (v: Record<string, string | undefined>) => {
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) delete process.env[k];
        else process.env[k] = x;
      }
      resetEnv();
    };
    set(vars);
    return Promise.resolve(fn()).finally(() => set(saved));
  };

  it("the first transport of a process is built from the configuration", async () => {
    await withEnv({ SMTP_URL: undefined, MAIL_DIR: path.join(dir, "first") }, async () => {
      vi.resetModules();
      const fresh = await import("@/lib/effects/mail/transport");
      const t = fresh.mailTransport();
      expect(t.name).toBe("file");
      expect(fresh.mailTransport()).toBe(t);
    });
  });

  it("another SMTP server, or another lease (the timeouts follow it), is another transport", async () => {
    await withEnv(
      {
        SMTP_URL: "smtp://127.0.0.1:2525",
        EFFECTS_LEASE_SECONDS: "10",
        STRIPE_TIMEOUT_MS: "1000",
      },
      async () => {
        const a = mailTransport();
        expect(mailTransport()).toBe(a);
        process.env.SMTP_URL = "smtp://127.0.0.1:2526";
        resetEnv();
        const b = mailTransport();
        expect(b).not.toBe(a);
        process.env.EFFECTS_LEASE_SECONDS = "11";
        resetEnv();
        const c = mailTransport();
        expect(c).not.toBe(b);
        expect(c.name).toBe("smtp");
        // A lease long enough that the timeouts reach their cap: nothing changes.
        process.env.EFFECTS_LEASE_SECONDS = "90";
        resetEnv();
        const d = mailTransport();
        process.env.EFFECTS_LEASE_SECONDS = "120";
        resetEnv();
        expect(mailTransport()).toBe(d);
      },
    );
  });
});
