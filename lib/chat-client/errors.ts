/**
 * Turns whatever went wrong with a chat request into one of a few problems the UI knows how to
 * explain. useChat reports a non-2xx response as an Error whose message is the response body, and
 * a stream error part as an Error whose message is the part's text, so both arrive as a string.
 */
import { z } from "zod";

export const MESSAGE_LIMIT = 2000;

const ApiErrorBody = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
    retryAfterSeconds: z.number().optional(),
    actionId: z.string().optional(),
    status: z.string().optional(),
  }),
});
export type ApiErrorInfo = z.infer<typeof ApiErrorBody>["error"];

/** What every call of the typed client (lib/api-client) answers; nothing throws. */
export type ApiFailure = {
  ok: false;
  /** 0 when no answer arrived (network). */
  status: number;
  /** The API's `error` object, when the body was one. */
  error: ApiErrorInfo | null;
};
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export type ChatProblem =
  | { kind: "too_long" }
  | { kind: "rate_limited"; retryAfterSeconds: number }
  /** The server has more conversations than it can answer: nothing was stored, send again later. */
  | { kind: "overloaded"; retryAfterSeconds: number }
  | { kind: "action_pending"; actionId: string | null }
  | { kind: "unauthenticated" }
  | { kind: "not_found" }
  /** The model or provider failed mid-turn: the server kept the history as it was, so resending is safe. */
  | { kind: "model_unavailable"; message: string }
  /** The request never got an answer (offline, server restarting). */
  | { kind: "network" }
  | { kind: "unknown"; message: string };

/** The `{error:{code,...}}` object of a JSON error body, or null when the text is not one. */
export function parseApiError(text: string): ApiErrorInfo | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ApiErrorBody.safeParse(json);
  return parsed.success ? parsed.data.error : null;
}

/** Retry-After is either seconds or an HTTP date; anything unusable becomes null. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const DEFAULT_RETRY_SECONDS = 60;
/** An overload passes in seconds, not a minute: the turns in flight end. */
const DEFAULT_OVERLOAD_SECONDS = 5;

/**
 * @param message  useChat's error.message
 * @param retryAfterHeader  the Retry-After header of the failed response, when there was one
 */
export function toChatProblem(
  message: string,
  retryAfterHeader: string | null = null,
): ChatProblem {
  const api = parseApiError(message);
  if (api) {
    switch (api.code) {
      case "message_too_long":
        return { kind: "too_long" };
      case "rate_limited":
        return {
          kind: "rate_limited",
          retryAfterSeconds:
            api.retryAfterSeconds ?? parseRetryAfter(retryAfterHeader) ?? DEFAULT_RETRY_SECONDS,
        };
      case "overloaded":
        return {
          kind: "overloaded",
          retryAfterSeconds:
            api.retryAfterSeconds ?? parseRetryAfter(retryAfterHeader) ?? DEFAULT_OVERLOAD_SECONDS,
        };
      case "action_pending":
        return { kind: "action_pending", actionId: api.actionId ?? null };
      case "unauthenticated":
        return { kind: "unauthenticated" };
      case "not_found":
        return { kind: "not_found" };
      case "model_unavailable":
        return { kind: "model_unavailable", message: api.message ?? "" };
      default:
        return { kind: "unknown", message: api.message ?? "" };
    }
  }
  // fetch() rejects with a TypeError whose text depends on the browser.
  if (/failed to fetch|networkerror|load failed|network request failed/i.test(message)) {
    return { kind: "network" };
  }
  // Anything else is the text of a stream error part: the turn started and the model failed.
  return { kind: "model_unavailable", message };
}

/**
 * Refused before a turn started: the server stored nothing, so the UI takes the bubble back and
 * returns the text to the composer. After a stream error the bubble stays, for Retry.
 */
export function isRequestRejected(problem: ChatProblem): boolean {
  return (
    problem.kind === "too_long" ||
    problem.kind === "rate_limited" ||
    problem.kind === "overloaded" ||
    problem.kind === "action_pending" ||
    problem.kind === "unauthenticated" ||
    problem.kind === "not_found"
  );
}
