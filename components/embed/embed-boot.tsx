"use client";
import { useEffect, useState } from "react";
import { EMBED_MESSAGES } from "@/lib/embed/protocol";
import { fromParent, listenForPage, toParent } from "./frame-bridge";

type Texts = { connecting: string; signInAtStore: string; failed: string; notFramed: string };
type State =
  | { kind: "waiting" }
  | { kind: "guest" }
  | { kind: "failed"; code: string }
  | { kind: "alone" };

/**
 * /embed: waits for the store page's token, starts the session with it and moves on to the chat.
 * Without a token (a visitor not signed in at the store) it starts a visitor's session, whose
 * chat answers the return policy only and says to sign in at the store for the rest.
 */
export function EmbedBoot({
  allowed,
  texts,
  locale,
}: {
  allowed: string[];
  texts: Texts;
  locale: string;
}) {
  const [state, setState] = useState<State>({ kind: "waiting" });

  useEffect(() => {
    if (window.parent === window) {
      setState({ kind: "alone" });
      return;
    }
    const stop = listenForPage(allowed, (event) => {
      const msg = fromParent(event, allowed);
      if (msg?.type !== EMBED_MESSAGES.boot) return;
      const visitor = typeof msg.token !== "string" || msg.token === "";
      if (visitor) setState({ kind: "guest" });
      void fetch(visitor ? "/api/embed/guest" : "/api/embed/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(
          visitor ? { origin: event.origin, locale } : { token: msg.token, origin: event.origin },
        ),
      })
        .then(async (res) => {
          if (res.ok) {
            toParent(allowed, EMBED_MESSAGES.session, { ok: true, guest: visitor });
            window.location.replace(`/embed/chat?locale=${encodeURIComponent(locale)}`);
            return;
          }
          const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
          const code = body?.error?.code ?? `http_${res.status}`;
          setState({ kind: "failed", code });
          toParent(allowed, EMBED_MESSAGES.session, { ok: false, code });
        })
        .catch(() => setState({ kind: "failed", code: "network_error" }));
    });
    toParent(allowed, EMBED_MESSAGES.ready);
    return stop;
  }, [allowed, locale]);

  const text =
    state.kind === "guest"
      ? texts.signInAtStore
      : state.kind === "failed"
        ? texts.failed.replace("{code}", state.code)
        : state.kind === "alone"
          ? texts.notFramed
          : texts.connecting;
  return (
    <main className="flex h-dvh items-center justify-center p-6 text-center">
      <p role={state.kind === "failed" ? "alert" : "status"} data-testid="embed-status">
        {text}
      </p>
    </main>
  );
}
