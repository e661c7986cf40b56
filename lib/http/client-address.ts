/**
 * The client's address, for every limiter keyed by address.
 *
 * By default it is the TCP peer of the connection: scripts/serve.mjs (the production server:
 * `npm start`, the e2e and system tests) writes the socket's address into our own header on every
 * request, replacing anything the client sent. Forwarded headers (`X-Forwarded-For`) are believed
 * only with TRUST_PROXY=N, for N proxies of your own in front: the address is then the Nth entry
 * from the right of X-Forwarded-For followed by the peer, the one your outermost proxy saw; what a
 * client wrote further left is ignored.
 *
 * Served any other way (`next dev`, a bare `next start`, route handlers called in tests) there is
 * no trustworthy address: null, and address-keyed limits fall back to one shared bucket rather
 * than to a header anyone can make up.
 */
import "server-only";
import { isIP } from "node:net";
import { env } from "../env";

const MARK = Symbol.for("returns-desk.peer-header");

/** The header scripts/serve.mjs stamps, or undefined when this process was not started by it. */
export function peerHeader(): string | undefined {
  const name = (globalThis as Record<symbol, unknown>)[MARK];
  return typeof name === "string" ? name : undefined;
}

function normalize(address: string | undefined | null): string | null {
  if (!address) return null;
  const a = address.trim().replace(/^\[(.*)\]$/, "$1");
  // An IPv4 client on a dual-stack socket appears as ::ffff:a.b.c.d.
  const v4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a)?.[1];
  const ip = v4 ?? a;
  return isIP(ip) ? ip.toLowerCase() : null;
}

export function clientAddress(headers: Headers): string | null {
  const header = peerHeader();
  if (!header) return null;
  const peer = normalize(headers.get(header));
  if (!peer) return null;
  const hops = env().TRUST_PROXY;
  if (hops === 0) return peer;
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  chain.push(peer);
  return normalize(chain[Math.max(0, chain.length - 1 - hops)]);
}

/** An IPv6 address's eight groups (with "::" expanded and an embedded IPv4 tail converted). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, ...rest] = text.split("::");
  if (rest.length > 0) return null;
  const part = (s: string | undefined) =>
    s ? s.split(":").map((g) => Number.parseInt(g, 16)) : [];
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  const groups = [...left, ...fill, ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

/**
 * The bucket an address-keyed limit counts a client in: an IPv4 address as it is, an IPv6
 * address by its /64. One subscriber, one host, is routinely given a whole /64 (2^64 addresses);
 * counted per address, such a client would have no limit at all.
 */
export function addressBucket(address: string | null): string {
  if (!address) return "unknown";
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
