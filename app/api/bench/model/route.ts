import { stepCountIs, streamText } from "ai";
import { z } from "zod";
import { getChatModel, MODEL_CALL_SETTINGS } from "@/lib/ai/models";
import { benchOrderTools } from "@/lib/bench/order-tool";
import { MAX_STEPS } from "@/lib/chat/turn";
import { env } from "@/lib/env";
import { unknownEndpoint } from "@/lib/http/methods";
import { AppError, errorResponse } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

const body = z.object({ text: z.string().min(1).max(2000) });

/**
 * `npm run bench:paced`'s floor inside Next: the configured model, the same tool loop and the UI
 * message stream, with no session, database, audit, history or persistence. Set against the bare
 * AI SDK server (bench/paced/bare-server.ts) it gives what Next costs; set against the real turn,
 * what our layer costs. Off (an unknown endpoint, 404) unless BENCH_FLOOR_ROUTE=1, which only the
 * benchmarks set.
 *
 * POST /api/bench/model {"text": "..."} -> the UI message stream of one turn.
 */
export async function POST(req: Request): Promise<Response> {
  if (env().BENCH_FLOOR_ROUTE !== "1") return unknownEndpoint();
  const parsed = body.safeParse(await req.json().catch(() => null));
  if (!parsed.success)
    return errorResponse(new AppError("invalid_request", 'Send {"text": "..."}.'));
  const result = streamText({
    model: getChatModel().model,
    messages: [{ role: "user", content: parsed.data.text }],
    tools: benchOrderTools,
    stopWhen: stepCountIs(MAX_STEPS),
    ...MODEL_CALL_SETTINGS,
  });
  return result.toUIMessageStreamResponse();
}
