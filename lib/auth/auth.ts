import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getConnection, schema } from "@/db";
import { env } from "../env";
import { configuredOrigin, expectedOrigin } from "../http/origin";
import { errorFields, log } from "../log";
import { password } from "./password";
import { authSecret } from "./secret";

/** Set on every auth request by sign-in-guard.ts; the only address header better-auth reads. */
export const CLIENT_ADDRESS_HEADER = "x-returns-desk-client";

function createAuth() {
  return betterAuth({
    // Stryker disable next-line StringLiteral: better-auth reads appName only in its two-factor plugin (an authenticator's issuer), which is not installed.
    appName: "Returns Desk",
    // Unset: the origin is taken from each request, and only that origin is trusted.
    baseURL: env().BETTER_AUTH_URL,
    // Same-origin only: a browser's Origin must be ours as a whole, scheme, host and port (the
    // configured origin, else the one this request reached), as lib/http/origin.ts checks every
    // other state change. https://localhost:3000 is not http://localhost:3000.
    trustedOrigins: async (request) => {
      const origin = request ? expectedOrigin(request) : configuredOrigin();
      return origin ? [origin] : [];
    },
    secret: authSecret(),
    // A customer may not rename the account: the name is what staff read on
    // the audit pages, and "Sam Support" must not be something a customer can call themselves.
    // Names and roles are set by the seed or an operator (npm run users). The route answers 404.
    disabledPaths: ["/update-user"],
    // The same connection as ours. On SQLite every statement better-auth runs goes through the
    // connection's statement gate (db/index.ts), so none can land inside one of our open
    // transactions; on PostgreSQL it uses the pool.
    database: drizzleAdapter(getConnection().db, {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the adapter's provider changes only case-insensitive where-clauses and JSON, array and UUID columns, none of which this configuration uses; everything else runs the same SQL on either.
      provider: getConnection().dialect === "postgres" ? "pg" : "sqlite",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      // better-auth's scrypt, a bounded number at once (memory: lib/auth/password.ts).
      password,
    },
    user: {
      additionalFields: {
        // Set by the seed or an operator; never from a sign-up form.
        role: { type: "string", required: false, defaultValue: "customer", input: false },
        // The interface language picked in the header (lib/i18n/actions.ts writes it).
        locale: { type: "string", required: false, input: false },
        // A store page's visitor who is not signed in there (POST /api/embed/guest); never input.
        guest: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      additionalFields: {
        // The store page of a session the store vouched for (lib/embed/session.ts); never input.
        embedOrigin: { type: "string", required: false, input: false },
      },
    },
    // Password guessing is throttled per client address (each try also costs a scrypt hash), and
    // per account in sign-in-guard.ts. The counters live in the database (table rate_limit), so
    // several instances behind a load balancer share one limit.
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 600,
      customRules: {
        "/sign-in/email": { window: 60, max: env().AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE },
        // Every page view reads the session: counting those would write a row per GET (GET must
        // not change the database, tests/system/post-only.test.ts) and throttle nothing useful.
        "/get-session": false,
      },
    },
    advanced: {
      // The address better-auth rate-limits by is the one we resolved (socket, or TRUST_PROXY's
      // forwarded header), set by lib/auth/sign-in-guard.ts on every request: never a header the
      // client wrote itself.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // better-auth skips its origin check under test runners; we want tests to see production behaviour.
      disableOriginCheck: false,
      // Left alone, better-auth marks cookies Secure (and __Secure- prefixed) whenever
      // NODE_ENV=production, so `npm start` served on plain http://host:3000 could never keep a
      // session. Secure follows the configured URL; without one, per request (secure-cookies.ts).
      // Its own prefix is never used: an https deployment gets __Host- instead (below).
      useSecureCookies: false,
      // An https deployment's cookies are __Host-: Secure, Path=/ and no Domain, which the
      // browser enforces, so a sibling subdomain or a plain-http page cannot plant or shadow
      // the session cookie (a __Secure- cookie may still carry a Domain).
      ...(httpsDeployment()
        ? { cookiePrefix: "__Host-better-auth", defaultCookieAttributes: { secure: true } }
        : {}),
    },
    // better-auth's own error reporting bypasses any logger for errors that are not its own
    // (its router prints them with console.error: "# SERVER_ERROR", a failed query with its
    // parameters, a session token or an email among them). Thrown instead, they reach our route
    // (app/api/auth/[...all]), which answers the contract's 500 and logs name and code only.
    // better-auth's own refusals (401, 429...) are still answered by better-auth.
    onAPIError: { throw: true },
    logger: {
      level: "error",
      // Into our JSON log: an error argument by name and code, the message's first line only and
      // never a query (a database error's message quotes the query and its parameters).
      log: (level, message, ...args) => {
        const err = args.find((a) => typeof a === "object" && a !== null);
        log()[level](
          { source: "better-auth", ...(err ? { err: errorFields(err) } : {}) },
          safeMessage(message),
        );
      },
    },
    plugins: [nextCookies()],
  });
}

/** The first line, without a quoted query (drizzle: "Failed query: <sql>\nparams: <values>"). */
function safeMessage(message: string): string {
  const first = message.split("\n", 1)[0]!.slice(0, 200);
  return /failed query|params:|select |insert |update |delete /i.test(first)
    ? "database error"
    : first;
}

/** Is this deployment configured as https (BETTER_AUTH_URL)? Fixed at start, like the cookies. */
export function httpsDeployment(): boolean {
  return env().BETTER_AUTH_URL?.startsWith("https://") ?? false;
}

type Auth = ReturnType<typeof createAuth>;
const g = globalThis as unknown as { __returnsDeskAuth?: { dbPath: string; auth: Auth } };

/** The better-auth instance, rebuilt only if the database changed (tests switch files). */
export function getAuth(): Auth {
  const dbPath = getConnection().key;
  if (g.__returnsDeskAuth?.dbPath !== dbPath) g.__returnsDeskAuth = { dbPath, auth: createAuth() };
  return g.__returnsDeskAuth.auth;
}
