/**
 * Just enough MIME to read what nodemailer sent (the tests' SMTP server and .eml files): the
 * headers (unfolded, RFC 2047 words decoded) and the text and HTML parts of a
 * multipart/alternative message, quoted-printable or base64.
 */
export type ParsedMail = {
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
};

function splitHead(raw: string): [Map<string, string>, string] {
  const at = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, at).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return [headers, body];
}

function decodeQp(s: string): Buffer {
  const soft = s.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, "utf8"));
  }
  return Buffer.from(bytes);
}

function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQp(text.replace(/_/g, " ")).toString("utf8"),
    );
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const enc = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") return decodeQp(body).toString("utf8");
  return body;
}

export function parseMail(raw: string | Buffer): ParsedMail {
  const [headers, body] = splitHead(raw.toString());
  const type = headers.get("content-type") ?? "text/plain";
  let text = "";
  let html = "";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith("--")) break;
      const [h, b] = splitHead(part.replace(/^\r?\n/, ""));
      const t = h.get("content-type") ?? "";
      if (t.startsWith("text/plain")) text = decodeBody(h, b.replace(/\r?\n$/, ""));
      if (t.startsWith("text/html")) html = decodeBody(h, b.replace(/\r?\n$/, ""));
    }
  } else text = decodeBody(headers, body);
  return {
    headers,
    subject: decodeWords(headers.get("subject") ?? ""),
    messageId: headers.get("message-id") ?? "",
    text,
    html,
  };
}
