/**
 * Configuration, validated once. Every variable is optional for `npm start`;
 * a wrong value fails at start with a message that names the variable.
 * Deliberately free of "server-only" so next.config.mjs (through jiti) and drizzle.config.ts can
 * import it.
 */
import { z } from "zod";
import { databaseEnvShape, emptyToUndefined, seedDemoDefault } from "../db/config";
import { ACTIVE_PROMPT_VERSION, SUPPORT_PROMPTS, type SupportPromptVersion } from "./ai/prompts";

/** The most requests one attempt at a store effect makes (a received return's: see below). */
export const MEDUSA_REQUESTS_PER_ATTEMPT = 11;

/** What a candidate profile may do (docs/operations.md): nothing, run in shadow, or serve chats. */
export const CANDIDATE_MODES = ["off", "shadow", "canary"] as const;
const PROMPT_VERSIONS = Object.keys(SUPPORT_PROMPTS) as [
  SupportPromptVersion,
  ...SupportPromptVersion[],
];

const schema = z
  .object({
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
    ...databaseEnvShape,
    MODEL_PROVIDER: z.preprocess(emptyToUndefined, z.enum(["offline", "openai"]).optional()),
    OPENAI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    OPENAI_MODEL: z.preprocess(emptyToUndefined, z.string().default("gpt-4.1-mini")),
    // The candidate profile: another model, provider or prompt version, compared with the live
    // one before it may act (docs/operations.md). Each CANDIDATE_* left unset takes the live value.
    CANDIDATE_MODE: z.preprocess(emptyToUndefined, z.enum(CANDIDATE_MODES).default("off")),
    // The sampled share of live turns the candidate repeats in shadow, 0 to 1.
    CANDIDATE_SHARE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(1).default(0.1)),
    CANDIDATE_MODEL_PROVIDER: z.preprocess(
      emptyToUndefined,
      z.enum(["offline", "openai"]).optional(),
    ),
    CANDIDATE_OPENAI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    CANDIDATE_OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    CANDIDATE_OPENAI_MODEL: z.preprocess(emptyToUndefined, z.string().optional()),
    CANDIDATE_PROMPT_VERSION: z.preprocess(emptyToUndefined, z.enum(PROMPT_VERSIONS).optional()),
    // A canary is rolled back when its signals leave the corridor for this many windows in a row.
    CANDIDATE_ROLLBACK_WINDOWS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(1000).default(2),
    ),
    // The drift corridor (docs/operations.md): per-turn signals in windows of this length, the
    // corridor from the last DRIFT_BASELINE_WINDOWS of them, an alert after DRIFT_BREACH_WINDOWS.
    DRIFT_WINDOW_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(5).max(86_400).default(3600),
    ),
    DRIFT_BASELINE_WINDOWS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(3).max(500).default(24),
    ),
    DRIFT_BREACH_WINDOWS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(1000).default(3),
    ),
    // Where alerts (drift, a canary's rollback) are sent: unset, they are only shown to staff.
    ALERT_WEBHOOK_URL: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
        .optional(),
    ),
    ALERT_WEBHOOK_SECRET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(
          /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/,
          "must be a Standard Webhooks secret: whsec_ followed by base64",
        )
        .optional(),
    ),
    PENDING_ACTION_TTL_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(86_400).default(900),
    ),
    /** A refund above this (minor units) waits for staff approval after the confirm; 0 = never. */
    APPROVAL_THRESHOLD_MINOR: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(1_000_000_000).default(50_000),
    ),
    /** How long a confirmed action waits for staff approval before it ends `expired`. */
    APPROVAL_TTL_HOURS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(8_760).default(48),
    ),
    BETTER_AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
    BETTER_AUTH_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(100_000).default(10),
    ),
    // Failed sign-ins per account (normalised email) within the window; then 429 until it passes.
    AUTH_ACCOUNT_MAX_FAILURES: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(1000).default(5),
    ),
    AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(86_400).default(900),
    ),
    // Unset/0/false: the client address is the socket's. N (or true = 1): N proxies of ours in
    // front; the address is taken from X-Forwarded-For (lib/http/client-address.ts).
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^(true|false|\d)$/, "must be unset, true, false or a number of proxies (0-9)")
        .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
        .default(0),
    ),
    CHAT_RATE_LIMIT_PER_MINUTE: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(10_000).default(20),
    ),
    // The longest a chat turn may run; it then ends with the model-failure error part.
    CHAT_TURN_DEADLINE_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(600).default(120),
    ),
    // The most chat turns running at once in this process (lib/chat/admission.ts adapts the limit
    // below it to the event loop's load); past the limit they wait in line, then get 503.
    CHAT_TURN_CAPACITY: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(100_000).default(512),
    ),
    // The most turns that may wait for a slot (a bound on memory); the measured pace of the line
    // refuses a newcomer earlier when its wait would run past CHAT_TURN_QUEUE_WAIT_SECONDS.
    CHAT_TURN_QUEUE: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(100_000).default(1024),
    ),
    // The longest a turn waits in line before it is refused with 503 overloaded.
    CHAT_TURN_QUEUE_WAIT_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(600).default(10),
    ),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
    ),
    // Payments: set STRIPE_SECRET_KEY and refunds go to Stripe; unset, to the built-in ledger
    // (a table in our own database, through the same outbox and relay: docs/effects.md).
    STRIPE_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    // A Stripe-compatible server instead of api.stripe.com, e.g. http://127.0.0.1:12111.
    STRIPE_API_BASE: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
        .refine(
          (u) => ["", "/"].includes(new URL(u).pathname),
          "must be a bare origin (no path): the API's paths start with /v1",
        )
        .optional(),
    ),
    // How long one request to Stripe may take before its outcome counts as unknown.
    STRIPE_TIMEOUT_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(100).max(120_000).default(10_000),
    ),
    // Where orders live (docs/stores.md): `builtin`, our own tables and demo seed, or `medusa`, a
    // Medusa v2 store's Admin API (MEDUSA_URL with a secret API key, MEDUSA_API_KEY).
    STORE_BACKEND: z.preprocess(emptyToUndefined, z.enum(["builtin", "medusa"]).default("builtin")),
    MEDUSA_URL: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
        .optional(),
    ),
    MEDUSA_API_KEY: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
    // How long one request to the store may take before it counts as unreachable (a read) or its
    // outcome as unknown (a write, which the relay then looks up).
    MEDUSA_TIMEOUT_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(100).max(120_000).default(1_500),
    ),
    // Customer email (lib/effects/mail/): an SMTP server as smtp://user:pass@host:port or
    // smtps://… (TLS from the start). Unset: each message is written as an .eml file under
    // MAIL_DIR instead, through the same outbox and relay.
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^smtps?:$/.test(new URL(u).protocol), "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    // The From of every customer email; its domain also ends each Message-ID.
    MAIL_FROM: z.preprocess(
      emptyToUndefined,
      z.string().min(3).default("Returns Desk <returns@returns-desk.localhost>"),
    ),
    // Where the .eml files go without SMTP_URL.
    MAIL_DIR: z.preprocess(emptyToUndefined, z.string().default("./data/mail")),
    // The warehouse's webhook (change_delivery_address): unset, no webhook is sent (the change is
    // still made). Signed with WAREHOUSE_WEBHOOK_SECRET, the Standard Webhooks way.
    WAREHOUSE_WEBHOOK_URL: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
        .optional(),
    ),
    WAREHOUSE_WEBHOOK_SECRET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(
          /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/,
          "must be a Standard Webhooks secret: whsec_ followed by base64",
        )
        .optional(),
    ),
    // The effects relay (lib/effects/relay.ts): attempts per effect before needs_attention...
    EFFECTS_MAX_ATTEMPTS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(1000).default(10),
    ),
    // ...and the longest an effect is retried from its confirm before needs_attention.
    EFFECTS_MAX_AGE_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int()
        .min(1)
        .max(30 * 86_400)
        .default(86_400),
    ),
    // Backoff after an attempt with an unknown outcome: base x 2^(attempt-1), capped, jittered.
    EFFECTS_RETRY_BASE_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(3_600_000).default(1_000),
    ),
    EFFECTS_RETRY_MAX_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(86_400_000).default(300_000),
    ),
    // How long a relay holds an effect it claimed; then another relay may take it over.
    EFFECTS_LEASE_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(3600).default(60),
    ),
    // How often each relay looks for due effects besides being woken by a commit.
    EFFECTS_POLL_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(3600).default(5),
    ),
    // The integration canary: after a provider's configuration changes (or its first), this
    // many effects of its kind go one at a time, each reconciled before the next; 0 turns it off.
    EFFECTS_CANARY_COUNT: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(100).default(3),
    ),
    // The chat on a store's own site (docs/embed.md). The store's server signs a customer's
    // token with EMBED_JWT_SECRET (HS256); during a rotation EMBED_JWT_SECRET_PREVIOUS still
    // verifies. With EMBED_JWKS_URL the store signs with its own key (RS256/ES256) instead, and
    // HS256 tokens are refused.
    EMBED_JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
    EMBED_JWT_SECRET_PREVIOUS: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
    EMBED_JWKS_URL: z.preprocess(
      emptyToUndefined,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
        .optional(),
    ),
    // The token's `aud`; unset, the public URL (BETTER_AUTH_URL).
    EMBED_AUDIENCE: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
    // The store origins that may frame /embed (CSP frame-ancestors) and talk to it (postMessage),
    // comma or space separated. Unset: embedding is off.
    EMBED_ALLOWED_ORIGINS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .transform((v) => v.split(/[\s,]+/).filter(Boolean))
        .pipe(
          z.array(
            z
              .url()
              .refine(
                (u) => /^https?:$/.test(new URL(u).protocol) && new URL(u).origin === u,
                "each entry must be a bare origin such as https://shop.example (no path, no trailing slash)",
              ),
          ),
        )
        .default([]),
    ),
    // Visitor (guest) sessions all addresses together may start in a minute (each is an account
    // with its own message limit); each address, an IPv6 client by its /64, gets 10 of them.
    EMBED_GUEST_SESSIONS_PER_MINUTE: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(100_000).default(120),
    ),
    // Days a guest account (a visitor without an account) may stay idle before it is deleted
    // with its chats and pending actions (lib/guests/prune.ts).
    GUEST_IDLE_DAYS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1).max(3650).default(30),
    ),
    // `npm run bench` and `npm run bench:paced` only: turns on GET /api/bench/floor and
    // POST /api/bench/model (see docs/benchmarks.md).
    BENCH_FLOOR_ROUTE: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  })
  .transform((e) => {
    // The key decides the default provider; an explicit MODEL_PROVIDER wins.
    const provider = e.MODEL_PROVIDER ?? (e.OPENAI_API_KEY ? "openai" : "offline");
    return {
      ...e,
      MODEL_PROVIDER: provider,
      // The candidate differs from the live profile only where it says so.
      CANDIDATE_MODEL_PROVIDER: e.CANDIDATE_MODEL_PROVIDER ?? provider,
      CANDIDATE_OPENAI_API_KEY: e.CANDIDATE_OPENAI_API_KEY ?? e.OPENAI_API_KEY,
      CANDIDATE_OPENAI_BASE_URL: e.CANDIDATE_OPENAI_BASE_URL ?? e.OPENAI_BASE_URL,
      CANDIDATE_OPENAI_MODEL: e.CANDIDATE_OPENAI_MODEL ?? e.OPENAI_MODEL,
      CANDIDATE_PROMPT_VERSION: e.CANDIDATE_PROMPT_VERSION ?? ACTIVE_PROMPT_VERSION,
      // The demo's default depends on the database (db/config.ts).
      SEED_DEMO: seedDemoDefault(e),
    };
  })
  .superRefine((e, ctx) => {
    // Several instances must sign sessions with one secret; the SQLite default keeps a generated
    // one in the data folder, which instances on other machines do not share.
    if (e.DATABASE_URL && !e.BETTER_AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["BETTER_AUTH_SECRET"],
        message:
          "is required when DATABASE_URL is set (every instance must sign sessions with the same secret: 32+ characters, e.g. `openssl rand -hex 32`)",
      });
    }
    // One attempt is a lookup and a request, each up to the timeout: the lease must outlast both,
    // or a second relay could take the effect over while the first one's request is still open.
    if (e.EFFECTS_LEASE_SECONDS * 1000 <= 2 * e.STRIPE_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["EFFECTS_LEASE_SECONDS"],
        message: `must be more than twice STRIPE_TIMEOUT_MS (${e.STRIPE_TIMEOUT_MS} ms)`,
      });
    }
    if (e.STORE_BACKEND === "medusa") {
      for (const name of ["MEDUSA_URL", "MEDUSA_API_KEY"] as const) {
        if (!e[name]) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "is required when STORE_BACKEND=medusa (docs/stores.md)",
          });
        }
      }
      // The lease must outlast a store effect's longest attempt, each request up to the timeout,
      // or another relay takes the effect over while the first is still sending. The longest is
      // a receipt's (lib/store/medusa.ts): its lookup (our return, our refund), then the return,
      // its items, dropping a half-done receive, receive, its items, confirm, our refund, the
      // refund, our refund again.
      const longest = MEDUSA_REQUESTS_PER_ATTEMPT * e.MEDUSA_TIMEOUT_MS;
      if (e.EFFECTS_LEASE_SECONDS * 1000 <= longest) {
        ctx.addIssue({
          code: "custom",
          path: ["EFFECTS_LEASE_SECONDS"],
          message: `must be more than ${MEDUSA_REQUESTS_PER_ATTEMPT} times MEDUSA_TIMEOUT_MS (${e.MEDUSA_TIMEOUT_MS} ms), ${longest / 1000} s`,
        });
      }
    }
    if (e.WAREHOUSE_WEBHOOK_URL && !e.WAREHOUSE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["WAREHOUSE_WEBHOOK_SECRET"],
        message: "is required when WAREHOUSE_WEBHOOK_URL is set (whsec_…: the webhooks are signed)",
      });
    }
    if (e.EMBED_JWT_SECRET_PREVIOUS && !e.EMBED_JWT_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["EMBED_JWT_SECRET_PREVIOUS"],
        message: "needs EMBED_JWT_SECRET (the previous secret is only the second one accepted)",
      });
    }
    if (e.MODEL_PROVIDER === "openai" && !e.OPENAI_API_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["OPENAI_API_KEY"],
        message: "is required when MODEL_PROVIDER=openai",
      });
    }
    if (e.ALERT_WEBHOOK_URL && !e.ALERT_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["ALERT_WEBHOOK_SECRET"],
        message: "is required when ALERT_WEBHOOK_URL is set (whsec_…: the webhooks are signed)",
      });
    }
    if (
      e.CANDIDATE_MODE !== "off" &&
      e.CANDIDATE_MODEL_PROVIDER === "openai" &&
      !e.CANDIDATE_OPENAI_API_KEY
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["CANDIDATE_OPENAI_API_KEY"],
        message:
          "is required when the candidate's provider is openai (set it, or OPENAI_API_KEY, which it defaults to)",
      });
    }
  });

export type Env = z.infer<typeof schema>;

/** Parses an environment; throws one readable error naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The process environment, parsed on first use. Tests may call resetEnv() after changing it. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export function resetEnv(): void {
  cached = undefined;
}
