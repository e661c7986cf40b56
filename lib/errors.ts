/**
 * One error type with stable codes. Route handlers throw these; lib/http/respond.ts maps them
 * to the JSON error contract of docs/api.md. Anything else is an internal error and is never leaked.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  /**
   * A store's customer token (POST /api/embed/session, docs/embed.md) refused: one code per
   * reason, so the store's developer can tell which check failed.
   */
  token_malformed: 401,
  token_forged: 401,
  token_unsigned: 401,
  token_algorithm_not_allowed: 401,
  token_expired: 401,
  token_not_yet_valid: 401,
  token_lifetime_too_long: 401,
  token_wrong_audience: 401,
  token_claims_invalid: 401,
  token_replayed: 401,
  token_too_large: 401,
  /** A store token whose email already belongs to an account that is not that store customer's. */
  email_in_use: 409,
  /** Embedding is not configured (no EMBED_ALLOWED_ORIGINS, or no secret or JWKS). */
  embed_disabled: 404,
  /** The store's JWKS could not be fetched; the token was not judged. */
  jwks_unavailable: 503,
  forbidden_origin: 403,
  /** Four eyes: staff may not approve an action of their own, nor one they confirmed. */
  own_action: 403,
  not_found: 404,
  method_not_allowed: 405,
  action_pending: 409,
  turn_in_progress: 409,
  already_decided: 409,
  stale: 409,
  /** The target is not in a state that allows this (e.g. shipping an order that is not processing). */
  conflict: 409,
  superseded: 409,
  /** A staff reply or release for a chat no person has taken over (or already handed back). */
  not_handed_off: 409,
  /** A proposal's chain was already edited the most times allowed. */
  revision_limit: 409,
  expired: 410,
  /** A guest's one-time code that does not match (or names no code of this session and order). */
  code_invalid: 401,
  /** A guest's one-time code past its 10 minutes, used already, or killed by three wrong tries. */
  code_expired: 410,
  message_too_long: 413,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  model_unavailable: 502,
  /** More chat turns than this instance can serve within CHAT_TURN_QUEUE_WAIT_SECONDS; Retry-After. */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra fields merged into the error object, e.g. `{ actionId }` or `{ status }`. */
  readonly details: Record<string, unknown>;
  /** Response headers such as Retry-After. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
