import { randomBytes } from "node:crypto";

/**
 * No 0/O or 1/I: a customer reads these ids back to support on the phone. Random, so an id tells
 * nothing about volume.
 */
const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** A write's own id: `prefix-` and 8 random characters of ALPHABET (40 bits). */
export function shortId(prefix: string): string {
  let id = "";
  for (const b of randomBytes(8)) id += ALPHABET[b % 32];
  return `${prefix}-${id}`;
}
