import "server-only";

const FALLBACK_CODES: Record<number, string> = {
  404: "not_found",
  405: "method_not_allowed",
  429: "rate_limited",
};

/**
 * better-auth answers errors as `{message, code}`; our contract is `{error: {code, message}}`.
 * Both shapes are kept in one body so better-auth's own client and our API clients each find
 * what they read.
 */
export async function toContractError(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  // Unknown paths and wrong methods come back from better-auth's router with no body at all.
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON after all: fall through with an empty body and a generic message.
  }
  const fallback = FALLBACK_CODES[res.status] ?? `http_${res.status}`;
  const rawCode = typeof body.code === "string" ? body.code : fallback;
  const code = rawCode.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const message =
    typeof body.message === "string"
      ? body.message
      : res.status === 404
        ? "No such endpoint."
        : res.statusText || "Request failed.";
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ ...body, error: { code, message } }), {
    status: res.status,
    headers,
  });
}
