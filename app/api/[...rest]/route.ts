import { unknownEndpoint } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/**
 * Any /api path no route claims. Next would render the HTML 404 page; API clients are promised
 * a JSON error for every failure (docs/api.md), whatever the method.
 */
export const GET = unknownEndpoint;
export const HEAD = unknownEndpoint;
export const POST = unknownEndpoint;
export const PUT = unknownEndpoint;
export const PATCH = unknownEndpoint;
export const DELETE = unknownEndpoint;
