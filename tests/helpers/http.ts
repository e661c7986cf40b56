/**
 * Calls the real Next.js route handlers in-process, with real cookies from a real sign-in.
 */
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { DEMO_PASSWORD } from "@/db/seed-data";

export const BASE = "http://localhost:3000";

type RouteFn<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

export type CallOptions = {
  method?: string;
  cookie?: string;
  body?: unknown;
  /** Raw body; wins over `body`. */
  raw?: string;
  headers?: Record<string, string>;
};

export function request(path: string, opts: CallOptions = {}): Request {
  const headers = new Headers(opts.headers);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  let body: string | undefined = opts.raw;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`${BASE}${path}`, {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

export async function call<P>(
  fn: RouteFn<P>,
  path: string,
  params: P,
  opts: CallOptions = {},
): Promise<Response> {
  return fn(request(path, opts), { params: Promise.resolve(params) });
}

/** Signs in through the real better-auth handler; returns the Cookie header to send. */
export async function signIn(email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await authPost(request("/api/auth/sign-in/email", { body: { email, password } }));
  if (res.status !== 200)
    throw new Error(`sign-in failed for ${email}: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  return cookies.join("; ");
}
