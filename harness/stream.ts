/**
 * Reads an AI SDK UI message stream response the way the browser's useChat does: the SSE
 * chunks, and the final assistant UIMessage assembled from them.
 */
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";
import type { ChatUIMessage } from "@/lib/api/parts";

export type TurnResult = {
  status: number;
  chunks: UIMessageChunk[];
  message: ChatUIMessage | undefined;
  /** All text parts joined. */
  text: string;
  errors: string[];
};

export async function readTurn(res: Response): Promise<TurnResult> {
  if (!res.body || !res.headers.get("content-type")?.includes("text/event-stream")) {
    throw new Error(`expected a UI message stream, got ${res.status} ${await res.text()}`);
  }
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({
    stream: res.body,
    schema: uiMessageChunkSchema,
  }).pipeThrough(
    new TransformStream({
      transform(r, c) {
        if (!r.success) throw r.error;
        chunks.push(r.value as UIMessageChunk);
        c.enqueue(r.value);
      },
    }),
  );
  let message: ChatUIMessage | undefined;
  for await (const m of readUIMessageStream<ChatUIMessage>({
    stream: parsed as ReadableStream<never>,
  })) {
    message = m;
  }
  const text = (message?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .filter((t) => t !== "")
    .join("\n");
  const errors = chunks
    .filter((c) => c.type === "error")
    .map((c) => (c as { errorText: string }).errorText);
  return { status: res.status, chunks, message, text, errors };
}

export function toolCalls(
  message: ChatUIMessage | undefined,
): { tool: string; input: unknown; state: string }[] {
  return (message?.parts ?? [])
    .filter((p) => p.type.startsWith("tool-"))
    .map((p) => {
      const t = p as { type: string; input?: unknown; state: string };
      return { tool: t.type.slice("tool-".length), input: t.input, state: t.state };
    });
}

export function pendingActionPart(message: ChatUIMessage | undefined) {
  return message?.parts.find((p) => p.type === "data-pending-action");
}
