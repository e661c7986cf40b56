import { beforeAll, describe, expect, it } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { GET as health } from "@/app/api/health/route";
import { closeDb, getDb } from "@/db";
import { initDatabase } from "@/db/init";
import { listOrdersForUser } from "@/db/queries/orders";
import { orders, user } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";
import { request, signIn } from "../helpers/http";

describe("foundation: database, demo store, sign-in, health", () => {
  let file: string;
  beforeAll(async () => {
    ({ file } = await useTestDatabase());
  });

  it("health reports ok with the offline model", async () => {
    const res = await health(request("/api/health"), { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      db: "ok",
      model: { provider: "offline", id: "returns-desk-offline-1" },
    });
  });

  it("seeds the demo store of docs/domain.md", async () => {
    const db = getDb();
    const emails = await db.select({ email: user.email, role: user.role }).from(user);
    expect(emails).toEqual(
      expect.arrayContaining([
        { email: "anna@example.com", role: "customer" },
        { email: "boris@example.com", role: "customer" },
        { email: "staff@example.com", role: "staff" },
      ]),
    );
    const anna = (await db.select().from(user)).find((u) => u.email === "anna@example.com")!;
    const annas = await listOrdersForUser({ userId: anna.id });
    const byId = new Map(annas.map((o) => [o.id, o]));
    expect(byId.get("7718")?.status).toBe("delivered");
    expect(byId.get("7718")?.items.some((i) => /coffee machine/i.test(i.name))).toBe(true);
    expect(byId.get("8041")?.status).toBe("in_transit");
    const now = Date.now();
    const days = (d: Date | null) => (d ? (now - d.getTime()) / 86_400_000 : Number.NaN);
    expect(days(byId.get("7718")!.deliveredAt)).toBeLessThan(30);
    expect(annas.some((o) => o.status === "delivered" && days(o.deliveredAt) > 30)).toBe(true);
    expect(annas.some((o) => o.status === "cancelled")).toBe(true);
    expect(annas.some((o) => /ignore all previous instructions/i.test(o.deliveryNote ?? ""))).toBe(
      true,
    );
    const all = await db.select().from(orders);
    expect(all.filter((o) => o.userId !== anna.id).length).toBeGreaterThan(0);
    for (const o of all) expect(o.id).toMatch(/^\d{4}$/);
  });

  it("each demo account signs in; a wrong password gets a clear JSON error", async () => {
    for (const email of ["anna@example.com", "boris@example.com", "staff@example.com"]) {
      expect(await signIn(email)).toMatch(/session_token=/);
    }
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: "wrong-password" },
      }),
    );
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.code).toBe("invalid_email_or_password");
    expect(body.error.message).toMatch(/invalid email or password/i);
  });

  it("refuses a sign-in posted from another site's page", async () => {
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: "returns-demo" },
        headers: { origin: "http://evil.example", host: "localhost:3000" },
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await res.json()).error.code).toBe("invalid_origin");
  });

  it("unknown auth paths and wrong methods answer the JSON contract too", async () => {
    for (const req of [request("/api/auth/no-such-endpoint"), request("/api/auth/sign-in/email")]) {
      const res = await authGet(req);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect((await res.json()).error.code).toMatch(/^[a-z_0-9]+$/);
    }
  });

  it("the session cookie identifies the user and their role", async () => {
    const cookie = await signIn("staff@example.com");
    const res = await authGet(request("/api/auth/get-session", { cookie }));
    const body = await res.json();
    expect(body.user.email).toBe("staff@example.com");
    expect(body.user.role).toBe("staff");
  });

  it("a second start on the same file migrates nothing new and does not seed again", async () => {
    const before = (await getDb().select().from(user)).length;
    await closeDb();
    process.env.DATABASE_PATH = file;
    await initDatabase();
    expect((await getDb().select().from(user)).length).toBe(before);
  });
});
