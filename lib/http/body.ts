import "server-only";
import type { z } from "zod";
import { AppError } from "../errors";
import { describeZodError } from "./respond";

const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => new AppError("payload_too_large", "The request body is too large.");

/**
 * The body's bytes, refused with 413 `payload_too_large` beyond `maxBytes`: at once when
 * Content-Length says so, otherwise as soon as the stream passes the cap (a chunked body has no
 * length to check), so an oversized body is never held in memory whole.
 */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      // The client closed the connection mid-body (ECONNRESET, an aborted fetch). Nothing was
      // read in full, so nothing is acted on; a 400 keeps it out of the 500s and the error log,
      // which are for our faults. The client is usually gone and never sees it.
      throw new AppError("invalid_request", "The request body ended before it was complete.");
    }
    const { done, value } = step;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Reads a JSON body with a size cap and validates it. An absent body counts as `{}` so
 * endpoints whose body is optional can share this. Errors follow the API contract.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const type = req.headers.get("content-type");
  const raw = new TextDecoder("utf-8", { fatal: false }).decode(
    await readBodyBytes(req, MAX_BODY_BYTES),
  );
  let value: unknown = {};
  if (raw.trim() !== "") {
    if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError("unsupported_media_type", "Send the body as application/json.");
    }
    try {
      value = JSON.parse(raw);
    } catch {
      throw new AppError("invalid_request", "The body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("invalid_request", describeZodError(parsed.error));
  return parsed.data;
}
