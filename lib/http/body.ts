import "server-only";
import type { z } from "zod";
import { AppError } from "../errors";
import { describeZodError } from "./respond";

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON body with a size cap and validates it. An absent body counts as `{}` so
 * endpoints whose body is optional can share this. Errors follow the API contract.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const type = req.headers.get("content-type");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES)
    throw new AppError("payload_too_large", "The request body is too large.");
  const raw = await readCapped(req);
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

async function readCapped(req: Request): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new AppError("payload_too_large", "The request body is too large.");
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}
