/**
 * The audit and staff APIs' access and parameters, decided actions, methods Next refuses
 * before our code runs, and pages hit with tricks (HTML is fine there: no 5xx, no stack trace).
 */
import type { Case } from "./types";

const audit: Case[] = [
  ["customer reads the audit", "/api/audit", "anna", 403, "forbidden"],
  ["customer exports the audit", "/api/audit/export", "anna", 403, "forbidden"],
  ["limit is not a number", "/api/audit?limit=abc", "staff", 400, "invalid_request"],
  ["limit zero", "/api/audit?limit=0", "staff", 400, "invalid_request"],
  ["limit over 200", "/api/audit?limit=100000", "staff", 400, "invalid_request"],
  ["negative limit", "/api/audit?limit=-1", "staff", 400, "invalid_request"],
  ["status not in the list", "/api/audit?status=hacked", "staff", 400, "invalid_request"],
  ["from is not a date", "/api/audit?from=yesterday", "staff", 400, "invalid_request"],
  ["SQL in from", "/api/audit?from=2024-01-01%27%20OR%201%3D1--", "staff", 400, "invalid_request"],
  ["forged cursor", "/api/audit?cursor=c1.Li4vLi4v", "staff", 400, "invalid_request"],
  ["cursor of junk", "/api/audit?cursor=%27%3B--", "staff", 400, "invalid_request"],
  [
    "repeated parameter",
    "/api/audit?status=success&status=rejected",
    "staff",
    400,
    "invalid_request",
  ],
  ["unknown parameter", "/api/audit?stauts=success", "staff", 400, "invalid_request"],
  [
    "from after to",
    "/api/audit?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z",
    "staff",
    400,
    "invalid_request",
  ],
  ["very long userId", `/api/audit?userId=${"u".repeat(3000)}`, "staff", 400, "invalid_request"],
  ["export with a cursor", "/api/audit/export?cursor=c1.MTIz", "staff", 400, "invalid_request"],
  [
    "export with a bad status",
    "/api/audit/export?status=%3Cscript%3E",
    "staff",
    400,
    "invalid_request",
  ],
].map(([name, path, as, status, code]) => ({
  name: `audit: ${name}`,
  path: path as string,
  as: as as Case["as"],
  status: status as number,
  code: code as string,
}));

/** Staff endpoints: nobody else learns anything, ids behave like everywhere else. */
const staff: Case[] = [
  ["customer reads a transcript", "GET", "/api/staff/chats/{emptyChat}", "anna", 403, "forbidden"],
  [
    "customer triages a chat",
    "POST",
    "/api/staff/chats/{emptyChat}/triage",
    "anna",
    403,
    "forbidden",
  ],
  [
    "signed out reads a transcript",
    "GET",
    "/api/staff/chats/{emptyChat}",
    "none",
    401,
    "unauthenticated",
  ],
  [
    "signed out triages",
    "POST",
    "/api/staff/chats/{emptyChat}/triage",
    "none",
    401,
    "unauthenticated",
  ],
  [
    "unknown chat transcript",
    "GET",
    "/api/staff/chats/00000000-0000-0000-0000-000000000000",
    "staff",
    404,
    "not_found",
  ],
  [
    "unknown chat triage",
    "POST",
    "/api/staff/chats/00000000-0000-0000-0000-000000000000/triage",
    "staff",
    404,
    "not_found",
  ],
  ["transcript with markup id", "GET", "/api/staff/chats/%3Cscript%3E", "staff", 404, "not_found"],
  [
    "transcript with a malformed escape",
    "GET",
    "/api/staff/chats/%ZZ",
    "staff",
    400,
    "invalid_request",
  ],
].map(([name, method, path, as, status, code]) => ({
  name: `staff API: ${name}`,
  method: method as string,
  path: path as string,
  as: as as Case["as"],
  status: status as number,
  code: code as string,
}));

const staffCrossSite: Case = {
  name: "staff API: triage from another site with the staff cookie",
  method: "POST",
  path: "/api/staff/chats/{emptyChat}/triage",
  as: "staff",
  headers: { origin: "http://evil.example" },
  status: 403,
  code: "forbidden_origin",
};

const decided: Case[] = [
  ["confirm a cancelled action", "{cancelledAction}/confirm", 409, "already_decided"],
  ["cancel a cancelled action", "{cancelledAction}/cancel", 409, "already_decided"],
  ["confirm a superseded action", "{supersededAction}/confirm", 409, "superseded"],
  ["cancel a superseded action", "{supersededAction}/cancel", 409, "superseded"],
].map(([name, tail, status, code]) => ({
  name: name as string,
  method: "POST",
  path: `/api/actions/${tail}`,
  status: status as number,
  code: code as string,
}));

const health: Case[] = [
  {
    name: "health: TRACE is refused by Node's fetch layer inside Next before any route code runs",
    method: "TRACE",
    path: "/api/health",
    status: 500,
    code: null,
  },
  {
    name: "health: unknown method is refused by Next before any route code runs",
    method: "PROPFIND",
    path: "/api/health",
    status: 400,
    code: null,
  },
];

/** Pages: HTML is fine here, but never a 5xx or a stack trace. */
// The chat page answers an id that is not yours exactly like an unknown one: its "chat not
// found" view with HTTP 404; rendering.test.ts checks that nothing of the other chat is in it.
const pages: Case[] = [
  ["chat page of an unknown id", "/chat/00000000-0000-0000-0000-000000000000", "anna", 404],
  ["chat page of boris's chat", "/chat/{borisChat}", "anna", 404],
  ["chat page with markup in the id", "/chat/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "anna", 404],
  ["chat page with an encoded traversal", "/chat/..%2F..%2Fapi%2Fhealth", "anna", 404],
  ["chat page with a very long id", `/chat/${"c".repeat(4000)}`, "anna", 404],
  ["chat page with a malformed escape", "/chat/%E0%A4%A", "anna", 400],
  ["chat page with an invalid escape", "/chat/%ZZ", "anna", 400],
  ["chat page signed out", "/chat/{emptyChat}", "none", 307],
  ["orders page signed out", "/", "none", 307],
  ["unknown page", "/wp-admin/install.php", "none", 404],
  ["dotfile probe", "/.env", "none", 404],
  ["traversal to the database", "/..%2F..%2Fdata%2Fapp.db", "none", 404],
  ["staff opens a customer's chat page", "/chat/{emptyChat}", "staff", 307],
].map(([name, path, as, status]) => ({
  name: `page: ${name}`,
  path: path as string,
  as: as as Case["as"],
  status: status as number,
}));

const serverActions: Case[] = [
  {
    name: "page: forged server action id",
    method: "POST",
    path: "/",
    headers: {
      "next-action": "0123456789abcdef0123456789abcdef01234567",
      "content-type": "text/plain",
    },
    body: "[]",
    status: 400,
  },
];

/** The browser asks for /favicon.ico on every page load: never a 404. */
const icons: Case[] = [
  { name: "GET /favicon.ico", as: "none", path: "/favicon.ico", status: 200 },
  { name: "GET /icon.svg", as: "none", path: "/icon.svg", status: 200 },
];

export const miscCases: Case[] = [
  ...icons,
  ...audit,
  ...staff,
  staffCrossSite,
  ...decided,
  ...health,
  ...pages,
  ...serverActions,
];
