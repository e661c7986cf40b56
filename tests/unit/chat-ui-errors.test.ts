import { describe, expect, it } from "vitest";
import { isRequestRejected, parseRetryAfter, toChatProblem } from "@/lib/chat-client/errors";

const body = (error: Record<string, unknown>) => JSON.stringify({ error });

describe("toChatProblem: what the chat says when a turn fails", () => {
  it("maps each API error code of docs/api.md to its problem", () => {
    expect(toChatProblem(body({ code: "message_too_long", message: "x" }))).toEqual({
      kind: "too_long",
    });
    expect(toChatProblem(body({ code: "action_pending", message: "x", actionId: "a1" }))).toEqual({
      kind: "action_pending",
      actionId: "a1",
    });
    expect(toChatProblem(body({ code: "unauthenticated", message: "x" }))).toEqual({
      kind: "unauthenticated",
    });
    expect(toChatProblem(body({ code: "not_found", message: "x" }))).toEqual({ kind: "not_found" });
    expect(toChatProblem(body({ code: "internal_error", message: "Oops" }))).toEqual({
      kind: "unknown",
      message: "Oops",
    });
  });

  it("takes the retry time from the body first, then from Retry-After", () => {
    expect(toChatProblem(body({ code: "rate_limited", retryAfterSeconds: 17 }), "99")).toEqual({
      kind: "rate_limited",
      retryAfterSeconds: 17,
    });
    expect(toChatProblem(body({ code: "rate_limited" }), "42")).toEqual({
      kind: "rate_limited",
      retryAfterSeconds: 42,
    });
    expect(toChatProblem(body({ code: "rate_limited" }), null)).toEqual({
      kind: "rate_limited",
      retryAfterSeconds: 60,
    });
  });

  it("an overloaded server is a refusal with its wait: the text goes back to the composer", () => {
    const p = toChatProblem(body({ code: "overloaded", retryAfterSeconds: 3 }), "9");
    expect(p).toEqual({ kind: "overloaded", retryAfterSeconds: 3 });
    expect(isRequestRejected(p)).toBe(true);
    expect(toChatProblem(body({ code: "overloaded" }), "7")).toEqual({
      kind: "overloaded",
      retryAfterSeconds: 7,
    });
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-05-05T10:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30);
    expect(parseRetryAfter("Tue, 05 May 2026 10:00:45 GMT", now)).toBe(45);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("treats the text of a stream error part as the model being unavailable", () => {
    expect(toChatProblem("The assistant is unavailable right now.")).toEqual({
      kind: "model_unavailable",
      message: "The assistant is unavailable right now.",
    });
  });

  it("recognises a request that never reached the server", () => {
    expect(toChatProblem("Failed to fetch")).toEqual({ kind: "network" });
  });

  it("gives the text back only for requests the server refused before the turn", () => {
    expect(isRequestRejected({ kind: "rate_limited", retryAfterSeconds: 1 })).toBe(true);
    expect(isRequestRejected({ kind: "action_pending", actionId: null })).toBe(true);
    expect(isRequestRejected({ kind: "unauthenticated" })).toBe(true);
    expect(isRequestRejected({ kind: "model_unavailable", message: "" })).toBe(false);
    expect(isRequestRejected({ kind: "network" })).toBe(false);
  });
});
