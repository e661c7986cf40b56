import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { resetEnv } from "@/lib/env";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

const signInFrom = (ip: string, password: string) =>
  authPost(
    request("/api/auth/sign-in/email", {
      body: { email: "anna@example.com", password },
      headers: { "x-forwarded-for": ip },
    }),
  );

describe("sign-in is throttled per client", () => {
  beforeAll(async () => {
    await useTestDatabase({ env: { AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "3" } });
  });
  afterAll(() => {
    process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE = "100000";
    resetEnv();
  });

  it("answers 429 after the limit, even with the right password, and only for that client", async () => {
    for (let i = 0; i < 3; i++)
      expect((await signInFrom("203.0.113.7", `guess-${i}`)).status).toBe(401);
    const limited = await signInFrom("203.0.113.7", "returns-demo");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect((await signInFrom("198.51.100.9", "returns-demo")).status).toBe(200);
  });
});
