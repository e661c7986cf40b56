/**
 * One hostile request and what the contract says it must get. Paths and header values may name
 * fixtures as `{pendingAction}`, `{borisChat}`, ...; they are filled in from the running world.
 */
export type Who = "anna" | "boris" | "staff" | "none";

export type Case = {
  name: string;
  method?: string;
  /** Sent verbatim (no normalization, no re-encoding). */
  path: string;
  /** Whose session cookie to send; default anna. `headers.cookie` overrides it. */
  as?: Who;
  headers?: Record<string, string>;
  /** Raw body. */
  body?: string | Buffer;
  /** JSON body (sets content-type: application/json unless headers say otherwise). */
  json?: unknown;
  chunked?: boolean;
  status: number;
  /**
   * `error.code` of the JSON error (api routes). Pages are checked for status and leaks only.
   * null: the framework answers before our code runs (documented per case).
   */
  code?: string | null;
};

/** Same-origin JSON message body. */
export const say = (text: string) => ({ text });

export const SIGN_IN = "/api/auth/sign-in/email";
