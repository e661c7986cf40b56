import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { parseMail } from "../helpers/mime";

/** Where the main e2e server writes its mail without SMTP (playwright.config.ts's MAIL_DIR). */
const mailDir = () => path.join(process.env.E2E_DATA_DIR ?? "", "mail");

/**
 * The code of the newest guest-code mail for this order sent after `since`, read from the .eml
 * file as a developer would (README, MAIL_DIR). The mail is sent without the answer waiting for
 * it, so this waits for the file.
 */
export async function guestCodeFromMail(orderId: string, since: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const dir = mailDir();
        if (!fs.existsSync(dir)) return undefined;
        const files = fs
          .readdirSync(dir)
          .filter((f) => f.endsWith("-mail.guest_code.eml"))
          .map((f) => path.join(dir, f))
          .filter((f) => fs.statSync(f).mtimeMs >= since)
          .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
        for (const f of files) {
          const mail = parseMail(fs.readFileSync(f));
          if (!mail.text.includes(orderId)) continue;
          code = /\b(\d{6})\b/.exec(mail.text)?.[1];
          if (code) return code;
        }
        return undefined;
      },
      { timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}
