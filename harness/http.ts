/**
 * Calls the real Next.js route handlers in-process, with real cookies from a real sign-in.
 */
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { DEMO_PASSWORD } from "@/db/seed-data";
import { assertContract } from "./contract";

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
  const req = request(path, opts);
  const res = await fn(req, { params: Promise.resolve(params) });
  await checkContract(req.method, path, res);
  return res;
}

/**
 * Every response an API test gets is also checked against the OpenAPI document. A JSON body is
 * read from a clone; a stream is left alone (only its status and type are checked), so a test
 * can still race two turns.
 */
async function checkContract(method: string, path: string, res: Response): Promise<void> {
  const contentType = res.headers.get("content-type");
  const text = /json/i.test(contentType ?? "") ? await res.clone().text() : "";
  assertContract({ method, path, status: res.status, contentType, text });
}

/** Signs in through the real better-auth handler; returns the Cookie header to send. */
export async function signIn(email: string, password = DEMO_PASSWORD): Promise<string> {
  const req = request("/api/auth/sign-in/email", { body: { email, password } });
  const res = await authPost(req);
  await checkContract("POST", "/api/auth/sign-in/email", res);
  if (res.status !== 200)
    throw new Error(`sign-in failed for ${email}: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  return cookies.join("; ");
}
