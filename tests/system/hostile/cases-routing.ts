/**
 * How a request reaches a route: unsupported methods on every route (405 in the JSON contract,
 * with Allow), unknown API paths (JSON 404, not the HTML page) and malformed percent-escapes
 * (400, where Next alone answered a bare 500).
 */
import type { Case } from "./types";

const ROUTES: [string, string[]][] = [
  ["/api/health", ["GET"]],
  ["/api/chats", ["GET", "POST"]],
  ["/api/chats/{emptyChat}", ["GET"]],
  ["/api/chats/{emptyChat}/messages", ["POST"]],
  ["/api/actions/{pendingAction}", ["GET"]],
  ["/api/actions/{pendingAction}/confirm", ["POST"]],
  ["/api/actions/{pendingAction}/cancel", ["POST"]],
  ["/api/audit", ["GET"]],
  ["/api/audit/export", ["GET"]],
  ["/api/staff/chats/{emptyChat}", ["GET"]],
  ["/api/staff/chats/{emptyChat}/triage", ["POST"]],
];

const methods: Case[] = ROUTES.flatMap(([path, allowed]) =>
  ["GET", "POST", "PUT", "PATCH", "DELETE"]
    .filter((m) => !allowed.includes(m))
    .map(
      (method): Case => ({
        name: `${method} ${path}`,
        method,
        path,
        as: path.startsWith("/api/audit") || path.startsWith("/api/staff") ? "staff" : "anna",
        status: 405,
        code: "method_not_allowed",
      }),
    ),
);

const unknownApi: Case[] = [
  ["/api/nope", "GET"],
  ["/api/chats/{emptyChat}/messages/extra", "GET"],
  ["/api/actions/{pendingAction}/execute", "POST"],
  ["/api/admin", "DELETE"],
].map(([path, method]) => ({
  name: `unknown API path: ${method} ${path}`,
  method,
  path: path!,
  status: 404,
  code: "not_found",
}));

const malformed: Case[] = [
  ["GET", "/api/chats/%E0%A4%A"],
  ["POST", "/api/chats/%ZZ/messages"],
  ["POST", "/api/actions/%ZZ/confirm"],
  ["POST", "/api/actions/%E0%A4%A/cancel"],
].map(([method, path]) => ({
  name: `malformed escape: ${method} ${path}`,
  method,
  path: path!,
  status: 400,
  code: "invalid_request",
}));

/** The benchmark's floor route exists only when the server is started for the benchmark. */
const benchFloor: Case = {
  name: "the benchmark floor route is off in a normal server",
  path: "/api/bench/floor?deltas=10&bytes=100",
  as: "none",
  status: 404,
  code: "not_found",
};

export const routingCases: Case[] = [...methods, ...unknownApi, ...malformed, benchFloor];
