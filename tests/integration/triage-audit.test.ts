/**
 * Every triage run is an audit event (who, which chat, model, prompt
 * version, status, duration), a failed one too, and the stored triage keeps who ran it and when.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as triageRoute } from "@/app/api/staff/chats/[id]/triage/route";
import { TRIAGE_AUDIT_TOOL } from "@/lib/ai/triage";
import { TRIAGE_PROMPT_VERSION } from "@/lib/ai/triage-prompt";
import { resetEnv } from "@/lib/env";
import { sqliteClient } from "@/tests/helpers/db";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { auditFor } from "../helpers/inspect";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";

const staffId = () =>
  sqliteClient()
    .prepare("select id from user where email = 'staff@example.com'")
    .pluck()
    .get() as string;

describe("triage runs are audited", () => {
  let server: OpenAIServer;
  let staff: string;
  let anna: Customer;
  const triage = (chat: string) =>
    call(
      triageRoute,
      `/api/staff/chats/${chat}/triage`,
      { id: chat },
      { cookie: staff, method: "POST" },
    );

  beforeAll(async () => {
    server = await startOpenAIServer();
    await useTestDatabase({ env: { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: "loopback-1" } });
    anna = await Customer.signIn("anna@example.com");
    staff = await signIn("staff@example.com");
  });
  afterAll(async () => {
    await server.close();
    for (const k of ["MODEL_PROVIDER", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"])
      delete process.env[k];
    resetEnv();
  });

  it("a successful run: an event by the staff member on the chat, and the triage says who and when", async () => {
    const chat = await anna.newChat();
    await anna.say(chat, "Where is order 8041?");
    const res = await triage(chat);
    expect(res.status).toBe(200);
    const stored = (await res.json()).triage as { ranBy: string; generatedAt: string };
    expect(stored.ranBy).toBe(staffId());
    expect(Number.isNaN(Date.parse(stored.generatedAt))).toBe(false);
    const events = (await auditFor(chat)).filter((e) => e.tool === TRIAGE_AUDIT_TOOL);
    expect(events).toEqual([
      expect.objectContaining({
        userId: staffId(),
        chatId: chat,
        status: "success",
        promptVersion: TRIAGE_PROMPT_VERSION,
        model: expect.any(String),
        durationMs: expect.any(Number),
      }),
    ]);
    expect(events[0]!.result).not.toBeNull();
  });

  it("a failed model call is audited too, as a technical error", async () => {
    process.env.MODEL_PROVIDER = "openai";
    process.env.OPENAI_API_KEY = "test-key";
    resetEnv();
    const chat = await anna.newChat();
    server.enqueue({ type: "text", text: "Order 8041 is on its way." });
    await anna.say(chat, "Where is order 8041?");
    server.enqueue({ type: "error", status: 500 });
    expect((await triage(chat)).status).toBe(502);
    const events = (await auditFor(chat)).filter((e) => e.tool === TRIAGE_AUDIT_TOOL);
    expect(events).toEqual([
      expect.objectContaining({
        userId: staffId(),
        chatId: chat,
        status: "technical_error",
        errorCode: "model_unavailable",
        model: "loopback-1",
        promptVersion: TRIAGE_PROMPT_VERSION,
      }),
    ]);
  });
});
