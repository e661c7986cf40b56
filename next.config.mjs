// The Next.js configuration. A plain ES module, as Next loads it; TypeScript stays in lib/.
import { createJiti } from "jiti";
import createNextIntlPlugin from "next-intl/plugin";

// Fail fast: a wrong variable stops `next build` and `next start` (so `npm start`) with a message
// naming it. The rules are the one zod schema in lib/env.ts that the app itself uses; Node 20
// cannot import TypeScript, so jiti (the loader Tailwind and Vite already use here) compiles it.
const jiti = createJiti(import.meta.url);
/** @type {typeof import("./lib/env")} */
const { env } = await jiti.import("./lib/env.ts");
env();

/** @returns {import("next").NextConfig} */
const nextConfig = () => ({
  // Benchmarks build into their own folder; the system tests and the e2e runs share `.next`, and
  // scripts/ensure-build.mjs builds it under a lock, so two runs never build it at once.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  serverExternalPackages: ["better-sqlite3"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          // Content-Security-Policy (with frame-ancestors) and X-Frame-Options: set per request
          // by proxy.ts, since /embed may be framed by the configured stores and nothing else.
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
      {
        // API answers are per session: no shared cache (proxy, CDN) may keep one.
        source: "/api/:path*",
        headers: [{ key: "Cache-Control", value: "no-store" }],
      },
      {
        // The chat turn is an event stream: no-transform keeps proxies from buffering it and
        // keeps Next from gzipping it, which cost a deflate flush per chunk for a few bytes saved
        // (docs/benchmarks.md).
        source: "/api/chats/:id/messages",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
      {
        // The load benchmark's floor stream must travel exactly like a chat turn.
        source: "/api/bench/floor",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
      {
        // bench:paced's Next route must travel exactly like a chat turn too.
        source: "/api/bench/model",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
      {
        // Confirm/cancel answers are ~1.5 KB: gzip saves a kilobyte but runs on the libuv pool,
        // where the click waited behind other customers' sign-in hashing (p95 3x, see
        // docs/benchmarks.md).
        source: "/api/actions/:path*",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
    ];
  },
});

// next-intl without locale routing: the request's language comes from lib/i18n/request.ts.
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

export default () => withNextIntl(nextConfig());
