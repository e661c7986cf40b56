/**
 * The second write tool and the staff "mark shipped" control: someone else's cancellation cannot
 * be decided, and the staff endpoint is staff-only, same-origin and answers unknown orders 404.
 * Every case here is refused, so none of them changes the database.
 */
import type { Case } from "./types";

const foreignCancellation: Case[] = [
  ["confirm boris's cancellation", "{borisCancelAction}/confirm"],
  ["cancel boris's cancellation", "{borisCancelAction}/cancel"],
].map(([name, tail]) => ({
  name: `cancel_order: ${name}`,
  method: "POST",
  path: `/api/actions/${tail}`,
  status: 404,
  code: "not_found",
}));

const ship: Case[] = [
  [
    "a customer marks an order shipped",
    "POST",
    "/api/staff/orders/3004/ship",
    "anna",
    403,
    "forbidden",
  ],
  [
    "signed out marks an order shipped",
    "POST",
    "/api/staff/orders/3004/ship",
    "none",
    401,
    "unauthenticated",
  ],
  ["unknown order", "POST", "/api/staff/orders/0000/ship", "staff", 404, "not_found"],
  ["markup order id", "POST", "/api/staff/orders/%3Cscript%3E/ship", "staff", 404, "not_found"],
  [
    "SQL order id",
    "POST",
    "/api/staff/orders/1%27%20OR%20%271%27%3D%271/ship",
    "staff",
    404,
    "not_found",
  ],
  ["GET is not allowed", "GET", "/api/staff/orders/3004/ship", "staff", 405, "method_not_allowed"],
].map(([name, method, path, as, status, code]) => ({
  name: `staff ship: ${name}`,
  method: method as string,
  path: path as string,
  as: as as Case["as"],
  status: status as number,
  code: code as string,
}));

const shipCrossSite: Case = {
  name: "staff ship: from another site with the staff cookie",
  method: "POST",
  path: "/api/staff/orders/3004/ship",
  as: "staff",
  headers: { origin: "http://evil.example" },
  status: 403,
  code: "forbidden_origin",
};

export const cancelCases: Case[] = [...foreignCancellation, ...ship, shipCrossSite];
