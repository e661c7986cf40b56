/**
 * Property tests for what a pending action stores: normalized arguments (a fixed point of the
 * schema, so confirm re-parses to the same value) and a payload hash that depends on content only.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, payloadHash } from "@/lib/actions/hash";
import { freeText } from "@/lib/text/free-text";
import { createReturnRequest } from "@/lib/tools/create-return-request";

const args = createReturnRequest.args;
// Controls but tab and newline (whitespace to the collapse), bidi and zero-width characters.
const REMOVED = /[^\P{Cc}\t\n]|[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
const reason = fc.constantFrom("defective", "damaged", "other");
const orderId = fc.stringMatching(/^\d{4}$/);
// Whitespace of every kind the collapse handles, mixed with arbitrary Unicode.
const messyText = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.constantFrom(" ", "\n", "\t", "\u00a0", "\r\n", "  "),
    ),
  )
  .map((parts) => parts.join(""));

/** The same JSON value with object keys in a different order at every depth. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]!);
  return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffled(v, seed + 1)]));
}

describe("canonical JSON and the payload hash", () => {
  it("canonical JSON does not depend on key order and round-trips the value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffled(value, seed))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("refuses what JSON cannot carry instead of hashing it as something else; an undefined key is absent", () => {
    // JSON.stringify would write NaN and the infinities as null, and drop undefined, a function
    // or a symbol: two different payloads would then share a hash.
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => canonicalJson(v)).toThrow("canonicalJson: non-finite number");
      expect(() => canonicalJson({ amount: [1, v] })).toThrow("non-finite number");
    }
    expect(() => canonicalJson(undefined)).toThrow("canonicalJson: undefined is not JSON");
    expect(() => canonicalJson(() => 1)).toThrow("canonicalJson: function is not JSON");
    expect(() => canonicalJson(Symbol("s"))).toThrow("canonicalJson: symbol is not JSON");
    expect(canonicalJson({ a: 1.5, b: -0 })).toBe('{"a":1.5,"b":0}');
    // A key whose value is undefined is absent, as in JSON (an optional argument left unset).
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(canonicalJson({ a: { c: undefined } })).toBe('{"a":{}}');
  });

  it("the hash is SHA-256 hex, stable under key order, and changes with any field", () => {
    fc.assert(
      fc.property(
        orderId,
        orderId,
        reason,
        fc.option(fc.string()),
        fc.uuid(),
        (a, b, r, c, userId) => {
          const payload = {
            tool: "create_return_request",
            userId,
            arguments: { orderId: a, reason: r, comment: c },
          };
          const hash = payloadHash(payload);
          expect(hash).toMatch(/^[0-9a-f]{64}$/);
          expect(payloadHash(shuffled(payload, 1) as typeof payload)).toBe(hash);
          const other = { ...payload, arguments: { ...payload.arguments, orderId: b } };
          expect(payloadHash(other) === hash).toBe(a === b);
          expect(payloadHash({ ...payload, userId: `${userId}x` })).not.toBe(hash);
        },
      ),
    );
  });
  it("a stored hash stays the same: keys in UTF-16 order at every depth, integer-like keys too", () => {
    // Pending actions keep this hash in the database, and confirm compares against it: any change
    // to the canonical form would refuse every action proposed before the change. The value was
    // computed by the code that wrote the stored hashes.
    const payload = {
      userId: "user-1",
      tool: "cancel_order",
      arguments: {
        reason: "changed_mind",
        orderId: "1001",
        Zeta: 1,
        ä: [{ b: 2, a: 1, B: null }],
        comment: undefined,
        "10": true,
        "9": false,
      },
    };
    expect(canonicalJson(payload)).toBe(
      '{"arguments":{"10":true,"9":false,"Zeta":1,"orderId":"1001","reason":"changed_mind","ä":[{"B":null,"a":1,"b":2}]},"tool":"cancel_order","userId":"user-1"}',
    );
    expect(payloadHash(payload)).toBe(
      "2d7ee39864b9964ecb7fc42934de0965b2ff5d1a88cf6508d5f552777ada24f6",
    );
  });
});

describe("create_return_request argument normalization", () => {
  it("collapses whitespace, keeps every character free text keeps, maps empty to null, and is a fixed point", () => {
    fc.assert(
      fc.property(orderId, reason, messyText, (o, r, comment) => {
        const parsed = args.safeParse({ orderId: o, reason: r, comment });
        // What lib/text/free-text.ts keeps, whitespace aside (its own properties are tested
        // in free-text.property.test.ts).
        const squeezed = comment
          .toWellFormed()
          .replace(REMOVED, "")
          .replace(/\s+/g, "")
          .normalize("NFC");
        if (!parsed.success) {
          // The only reason to refuse a string comment is its length after normalising.
          expect([...freeText(comment)].length).toBeGreaterThan(300);
          return;
        }
        const c = parsed.data.comment;
        if (squeezed === "") expect(c).toBeNull();
        else {
          expect(c).not.toBeNull();
          expect(c).not.toMatch(/^\s|\s$|\s\s|[^\S ]/);
          expect(c!.replace(/ /g, "").normalize("NFC")).toBe(squeezed);
        }
        const again = args.parse(parsed.data);
        expect(again).toEqual(parsed.data);
        expect(payloadHash({ tool: "t", userId: "u", arguments: again })).toBe(
          payloadHash({ tool: "t", userId: "u", arguments: parsed.data }),
        );
      }),
    );
  });

  it("a comment differing only in whitespace hashes the same", () => {
    fc.assert(
      fc.property(
        orderId,
        reason,
        fc.array(fc.stringMatching(/^\S{1,8}$/), { minLength: 1, maxLength: 20 }),
        (o, r, words) => {
          const tight = args.parse({ orderId: o, reason: r, comment: words.join(" ") });
          const loose = args.parse({
            orderId: o,
            reason: r,
            comment: `\n ${words.join(" \t\u00a0 ")}  `,
          });
          expect(loose).toEqual(tight);
          expect(payloadHash({ tool: "t", userId: "u", arguments: loose })).toBe(
            payloadHash({ tool: "t", userId: "u", arguments: tight }),
          );
        },
      ),
    );
  });

  it("accepts exactly four-digit order ids and rejects unknown keys", () => {
    fc.assert(
      fc.property(fc.string(), reason, (candidate, r) => {
        const ok = args.safeParse({ orderId: candidate, reason: r }).success;
        expect(ok).toBe(/^\d{4}$/.test(candidate));
      }),
    );
    fc.assert(
      fc.property(orderId, reason, fc.string({ minLength: 1 }), (o, r, key) => {
        fc.pre(!["orderId", "reason", "comment", "__proto__"].includes(key));
        expect(args.safeParse({ orderId: o, reason: r, [key]: 1 }).success).toBe(false);
      }),
    );
  });

  it("counts the 300-character limit in characters, so emoji are not penalised", () => {
    expect(
      args.safeParse({ orderId: "7718", reason: "other", comment: "😀".repeat(300) }).success,
    ).toBe(true);
    expect(
      args.safeParse({ orderId: "7718", reason: "other", comment: "😀".repeat(301) }).success,
    ).toBe(false);
    expect(
      args.safeParse({ orderId: "7718", reason: "other", comment: `${"a".repeat(300)}   ` })
        .success,
    ).toBe(true);
  });
});
