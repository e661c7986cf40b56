/**
 * Ids that are not the caller's: unknown, someone else's, near misses of real ones, traversal
 * and encoding tricks, SQL, markup, very long and unicode. Every endpoint taking an id must
 * answer them all with the same 404 `not_found` (existence is never revealed).
 */
import { type Case, say } from "./types";

const ID_TRICKS: [string, string][] = [
  ["unknown uuid", "00000000-0000-0000-0000-000000000000"],
  ["encoded traversal to health", "%2e%2e%2f%2e%2e%2fhealth"],
  ["dot-dot with encoded slashes", "..%2F..%2Fchats"],
  ["encoded slash inside", "a%2Fb"],
  ["encoded backslash traversal", "..%5C..%5Caudit"],
  ["double-encoded dot-dot", "%252e%252e%252f"],
  ["very long id", "x".repeat(4000)],
  ["emoji", "%F0%9F%98%80"],
  ["cyrillic", "%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7"],
  ["RTL override", "%E2%80%AE1234"],
  ["SQL tautology", "%27%20OR%20%271%27%3D%271"],
  ["SQL statement", "1%3BDROP%20TABLE%20chats"],
  ["markup", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
  ["literal null", "null"],
  ["object string", "%5Bobject%20Object%5D"],
  ["space", "%20"],
  ["LIKE wildcard", "%25"],
  // PostgreSQL text cannot hold NUL: a query with one fails there, so it must never reach one.
  ["encoded NUL", "%00"],
  ["NUL inside a uuid", "00000000-0000-%00-0000-000000000000"],
];

/** Near misses of a real id, built from the fixture at run time. */
const NEAR_MISSES: [string, (real: string) => string][] = [
  ["real id plus a character", (id) => `${id}x`],
  ["real id with a zero-width prefix", (id) => `%E2%80%8B${id}`],
  ["real id with trailing encoded NUL", (id) => `${id}%00`],
  ["real id with a trailing encoded space", (id) => `${id}%20`],
];

/** The four endpoints that take an id: two for chats, two for actions. */
function forEachEndpoint(label: string, chatSeg: string, actionSeg: string): Case[] {
  return [
    {
      name: `GET chat: ${label}`,
      path: `/api/chats/${chatSeg}`,
      status: 404,
      code: "not_found",
    },
    {
      name: `message to chat: ${label}`,
      method: "POST",
      path: `/api/chats/${chatSeg}/messages`,
      json: say("Where is order 8041?"),
      status: 404,
      code: "not_found",
    },
    {
      name: `confirm: ${label}`,
      method: "POST",
      path: `/api/actions/${actionSeg}/confirm`,
      status: 404,
      code: "not_found",
    },
    {
      name: `cancel: ${label}`,
      method: "POST",
      path: `/api/actions/${actionSeg}/cancel`,
      status: 404,
      code: "not_found",
    },
  ];
}

export const idCases: Case[] = [
  ...ID_TRICKS.flatMap(([label, seg]) => forEachEndpoint(label, seg, seg)),
  ...NEAR_MISSES.flatMap(([label, f]) =>
    forEachEndpoint(label, f("{emptyChat}"), f("{pendingAction}")),
  ),
  // An encoded ".." is a real path step: the URL is normalized before routing, so these reach
  // other (or no) routes, never a chat or action named "..".
  {
    name: "GET chat: encoded dot-dot is normalized to /api (a redirect, nothing read)",
    path: "/api/chats/%2e%2e",
    status: 308,
    code: null,
  },
  ...[
    "/api/chats/%2e%2e/messages",
    "/api/actions/%2e%2e/confirm",
    "/api/actions/%2e%2e/cancel",
  ].map(
    (path): Case => ({
      name: `POST ${path}: normalized to an unknown API path`,
      method: "POST",
      path,
      json: say("Where is order 8041?"),
      status: 404,
      code: "not_found",
    }),
  ),
  // Someone else's real ids: answered exactly like unknown ones.
  {
    name: "anna reads boris's chat",
    path: "/api/chats/{borisChat}",
    status: 404,
    code: "not_found",
  },
  {
    name: "anna writes into boris's chat",
    method: "POST",
    path: "/api/chats/{borisChat}/messages",
    json: say("Create a return request for order 4410. The item arrived damaged."),
    status: 404,
    code: "not_found",
  },
  {
    name: "anna confirms boris's action",
    method: "POST",
    path: "/api/actions/{borisAction}/confirm",
    status: 404,
    code: "not_found",
  },
  {
    name: "anna cancels boris's action",
    method: "POST",
    path: "/api/actions/{borisAction}/cancel",
    status: 404,
    code: "not_found",
  },
  {
    name: "boris confirms anna's action",
    as: "boris",
    method: "POST",
    path: "/api/actions/{pendingAction}/confirm",
    status: 404,
    code: "not_found",
  },
  {
    name: "boris reads anna's chat",
    as: "boris",
    path: "/api/chats/{pendingChat}",
    status: 404,
    code: "not_found",
  },
  // Chats and decisions are the customers': staff are refused outright, whoever owns the id.
  {
    name: "staff confirms anna's action",
    as: "staff",
    method: "POST",
    path: "/api/actions/{pendingAction}/confirm",
    status: 403,
    code: "forbidden",
  },
  {
    name: "staff cancels boris's action",
    as: "staff",
    method: "POST",
    path: "/api/actions/{borisAction}/cancel",
    status: 403,
    code: "forbidden",
  },
  {
    name: "confirm with a forged body naming boris's action",
    method: "POST",
    path: "/api/actions/00000000-0000-0000-0000-000000000000/confirm",
    json: { actionId: "{borisAction}", arguments: { orderId: "4410", reason: "other" } },
    status: 404,
    code: "not_found",
  },
];
