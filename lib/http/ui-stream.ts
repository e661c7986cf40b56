/**
 * A UI message stream as the HTTP response, read to its end whatever the client does.
 *
 * The AI SDK's createUIMessageStreamResponse does this with `consumeSseStream`: it turns the
 * chunks into SSE text in one TransformStream, encodes them in a second, and tees the result so
 * that a second reader keeps the stream (and so the turn's onFinish, which saves it) going after
 * the browser left. At a hosted model's pace a turn is a hundred-odd small chunks, and each of
 * those stages is a promise and a queue per chunk: the profile of `npm run bench:paced` showed
 * web streams as the largest share of a turn's CPU (docs/benchmarks.md). Here one loop reads the
 * stream, frames each chunk the same way (`data: <json>\n\n`, then `data: [DONE]\n\n`, with the
 * SDK's own headers, so useChat reads it unchanged) and hands the bytes to the response; a client
 * that goes away only stops the bytes, never the reading.
 */
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from "ai";

const encoder = new TextEncoder();

export function drainedUIMessageStreamResponse(stream: ReadableStream<UIMessageChunk>): Response {
  let out: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
    },
    cancel() {
      open = false;
    },
  });
  const send = (text: string) => {
    if (!open) return;
    try {
      out?.enqueue(encoder.encode(text));
    } catch {
      // The response closed between the check and the write: the client is gone.
      open = false;
    }
  };
  void (async () => {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        send(`data: ${JSON.stringify(value)}\n\n`);
      }
      send("data: [DONE]\n\n");
      if (open) out?.close();
    } catch (err) {
      if (open) out?.error(err);
    }
  })();
  return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
}
