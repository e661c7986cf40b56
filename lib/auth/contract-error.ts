import "server-only";

/**
 * better-auth answers errors as `{message, code}`; our contract is `{error: {code, message}}`.
 * Both shapes are kept in one body so better-auth's own client and our API clients each find
 * what they read.
 */
export async function toContractError(res: Response): Promise<Response> {
  if (res.status < 400 || !res.headers.get("content-type")?.includes("application/json"))
    return res;
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON after all: fall through with an empty body and a generic message.
  }
  const rawCode = typeof body.code === "string" ? body.code : `http_${res.status}`;
  const code = rawCode.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const message =
    typeof body.message === "string" ? body.message : res.statusText || "Request failed.";
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, error: { code, message } }), {
    status: res.status,
    headers,
  });
}
