/**
 * A customer could rename the account through better-auth
 * (`POST /api/auth/update-user {"name": "Sam Support"}`), and staff pages show that name. The
 * route is disabled: it answers like an unknown path, and the name stays what the operator set.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db";
import { user } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";
import { request, signIn } from "../helpers/http";

describe("a customer cannot rename the account", () => {
  let cookie: string;
  beforeAll(async () => {
    await useTestDatabase();
    cookie = await signIn("anna@example.com");
  });

  it("POST /api/auth/update-user is refused (404) and the name is unchanged", async () => {
    // Same-origin, signed in: everything a browser on our own page would send.
    const res = await authPost(
      request("/api/auth/update-user", {
        cookie,
        body: { name: "Sam Support" },
        headers: { origin: "http://localhost:3000", host: "localhost:3000" },
      }),
    );
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    const [row] = await getDb()
      .select({ name: user.name })
      .from(user)
      .where(eq(user.email, "anna@example.com"));
    expect(row?.name).toBe("Anna Petrova");
  });
});
