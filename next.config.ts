import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER } from "next/constants";
import { env } from "./lib/env";

// Fail fast: a wrong variable stops the build/start with a message naming it.
env();

// Model and user text is rendered as text/markdown, never as HTML; the CSP is the second fence.
// Only `next dev` needs eval (hot reload). Decided by the phase, not NODE_ENV: `next build`
// loads this file before it sets NODE_ENV, and the headers it computes then are what
// `next start` serves, so a NODE_ENV test put 'unsafe-eval' into production.
const cspFor = (isDev: boolean) =>
  [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

const nextConfig = (phase: string): NextConfig => ({
  // Benchmarks and system tests build into their own folder so they never race the e2e build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  serverExternalPackages: ["better-sqlite3"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: cspFor(phase === PHASE_DEVELOPMENT_SERVER) },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
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
        // Confirm/cancel answers are ~1.5 KB: gzip saves a kilobyte but runs on the libuv pool,
        // where the click waited behind other customers' sign-in hashing (p95 3x, see
        // docs/benchmarks.md).
        source: "/api/actions/:path*",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
    ];
  },
});

export default nextConfig;
