import "server-only";
import { ZodError } from "zod";
import { errorFields, log } from "@/lib/log";
import { AppError, isAppError } from "../errors";

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, init);
}

/** Maps any thrown value to the JSON error contract; internal errors are logged, never leaked. */
export function errorResponse(err: unknown): Response {
  if (isAppError(err)) {
    return Response.json(
      { error: { code: err.code, message: err.message, ...err.details } },
      { status: err.status, headers: err.headers },
    );
  }
  if (err instanceof ZodError) {
    return Response.json(
      { error: { code: "invalid_request", message: describeZodError(err) } },
      { status: 400 },
    );
  }
  log().error({ err: errorFields(err) }, "unhandled error");
  return Response.json(
    {
      error: {
        code: "internal_error",
        message: "Something went wrong on our side. Please try again.",
      },
    },
    { status: 500 },
  );
}

export function describeZodError(err: ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

export { AppError };
