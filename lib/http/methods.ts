import "server-only";
import { AppError } from "../errors";
import { errorResponse } from "./respond";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = () => Response;

/**
 * Handlers for the methods a route does not support. Without them Next answers an empty 405,
 * while docs/api.md promises a JSON error for every API failure. Usage in a route file:
 * `export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");`
 */
export function notAllowed(...allowed: Method[]): Record<Method, Handler> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse: Handler = () =>
    errorResponse(
      new AppError("method_not_allowed", `This endpoint accepts ${allowed.join(" and ")} only.`, {
        headers: { Allow: allow },
      }),
    );
  return { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}

/** Every method of an unknown /api path: the contract's JSON 404 instead of the HTML page. */
export function unknownEndpoint(): Response {
  return errorResponse(new AppError("not_found", "No such API endpoint."));
}
