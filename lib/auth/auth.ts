import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getDb, schema } from "@/db";
import { env } from "../env";
import { authSecret } from "./secret";

function createAuth() {
  return betterAuth({
    appName: "Returns Desk",
    // Unset: the origin is taken from each request, and only that origin is trusted.
    baseURL: env().BETTER_AUTH_URL,
    // Same-origin only: a browser's Origin must name the host the request was sent to. Next.js
    // reports req.url as "localhost" even when bound to 127.0.0.1, so the Host header decides.
    trustedOrigins: async (request) => {
      const host = request?.headers.get("host");
      return host ? [`http://${host}`, `https://${host}`] : [];
    },
    secret: authSecret(),
    database: drizzleAdapter(getDb(), {
      provider: "sqlite",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
      },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    user: {
      additionalFields: {
        // Set by the seed or an operator; never from a sign-up form.
        role: { type: "string", required: false, defaultValue: "customer", input: false },
        // The interface language picked in the header (lib/i18n/actions.ts writes it).
        locale: { type: "string", required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Password guessing is throttled per client IP (each try also costs a scrypt hash).
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 600,
      customRules: {
        "/sign-in/email": { window: 60, max: env().AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE },
      },
    },
    advanced: {
      // better-auth skips its origin check under test runners; we want tests to see production behaviour.
      disableOriginCheck: false,
      // Left alone, better-auth marks cookies Secure (and __Secure- prefixed) whenever
      // NODE_ENV=production, so `npm start` served on plain http://host:3000 could never keep a
      // session. Secure follows the configured URL; without one, per request (secure-cookies.ts).
      useSecureCookies: env().BETTER_AUTH_URL?.startsWith("https://") ?? false,
    },
    logger: { level: "error" },
    plugins: [nextCookies()],
  });
}

type Auth = ReturnType<typeof createAuth>;
const g = globalThis as unknown as { __returnsDeskAuth?: { dbPath: string; auth: Auth } };

/** The better-auth instance, rebuilt only if DATABASE_PATH changed (tests switch files). */
export function getAuth(): Auth {
  const dbPath = env().DATABASE_PATH;
  if (g.__returnsDeskAuth?.dbPath !== dbPath) g.__returnsDeskAuth = { dbPath, auth: createAuth() };
  return g.__returnsDeskAuth.auth;
}
