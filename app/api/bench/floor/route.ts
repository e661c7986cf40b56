import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { env } from "@/lib/env";
import { unknownEndpoint } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/**
 * The load benchmark's floor: a UI message stream of a given size with no auth, database or
 * model behind it, so `npm run bench` can say how much a chat turn costs above what streaming
 * alone costs on the same server. Off (an unknown endpoint, 404) unless the server was started
 * with BENCH_FLOOR_ROUTE=1, which only the benchmark does.
 *
 * GET /api/bench/floor?deltas=N&bytes=B -> N text deltas carrying about B bytes in total.
 */
export async function GET(req: Request): Promise<Response> {
  if (env().BENCH_FLOOR_ROUTE !== "1") return unknownEndpoint();
  const q = new URL(req.url).searchParams;
  const deltas = clamp(Number(q.get("deltas")), 1, 1000);
  const bytes = clamp(Number(q.get("bytes")), 1, 1_000_000);
  const piece = "x".repeat(Math.max(1, Math.round(bytes / deltas)));
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: "text-start", id: "t" });
      for (let i = 0; i < deltas; i++) writer.write({ type: "text-delta", id: "t", delta: piece });
      writer.write({ type: "text-end", id: "t" });
    },
  });
  return createUIMessageStreamResponse({ stream });
}

const clamp = (n: number, lo: number, hi: number) =>
  Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.round(n))) : lo;
