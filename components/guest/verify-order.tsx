"use client";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useId, useState } from "react";

type Step =
  | { kind: "closed" }
  | { kind: "ask" }
  | { kind: "code"; orderId: string }
  | { kind: "verified"; orderId: string; until: string };

/** The JSON error code of a refusal, or null (a network failure, a body that is not ours). */
async function errorCode(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : null;
  } catch {
    return null;
  }
}

async function post(path: string, body: unknown): Promise<Response | null> {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return null;
  }
}

/**
 * "Verify an order" for a guest (no account): the order's number and the e-mail it was placed
 * with, then the code mailed there. A form of its own, outside the chat: a code typed into the
 * chat would pass through the model and stay in the transcript. The answers never say whether
 * the order exists; the chat's next turn can act on a verified order.
 */
export function VerifyOrder() {
  const t = useTranslations("chat.guest");
  const locale = useLocale() === "ru" ? "ru" : "en";
  const ids = useId();
  const [step, setStep] = useState<Step>({ kind: "closed" });
  const [orderId, setOrderId] = useState("");
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<{ tone: "info" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function requestCode(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const res = await post("/api/guest/verification", { orderId, email, locale });
    setBusy(false);
    if (res?.status === 202) {
      setStep({ kind: "code", orderId: orderId.trim() });
      setCode("");
      setMessage({ tone: "info", text: t("sent") });
      return;
    }
    const c = res ? await errorCode(res) : null;
    setMessage({ tone: "error", text: c === "rate_limited" ? t("tooMany") : t("failed") });
  }

  async function confirmCode(e: FormEvent) {
    e.preventDefault();
    if (step.kind !== "code") return;
    setBusy(true);
    setMessage(null);
    const res = await post("/api/guest/verification/confirm", { orderId: step.orderId, code });
    setBusy(false);
    if (res?.ok) {
      const body = (await res.json()) as { verified: { orderId: string; until: string } };
      setStep({ kind: "verified", ...body.verified });
      return;
    }
    const c = res ? await errorCode(res) : null;
    setMessage({
      tone: "error",
      text:
        c === "code_invalid"
          ? t("codeInvalid")
          : c === "code_expired"
            ? t("codeExpired")
            : c === "rate_limited"
              ? t("tooMany")
              : t("failed"),
    });
  }

  const field = "mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2";
  const button =
    "min-h-11 rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60";

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm"
      data-testid="guest-verify"
    >
      <div className="flex items-center gap-2">
        <h2 id={`${ids}-title`} className="flex-1 font-medium">
          {step.kind === "verified" ? t("verified", { orderId: step.orderId }) : t("title")}
        </h2>
        {step.kind === "closed" || step.kind === "verified" ? (
          <button
            type="button"
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3"
            onClick={() => {
              setStep({ kind: "ask" });
              setMessage(null);
              setOrderId("");
            }}
            data-testid="guest-verify-open"
          >
            {step.kind === "verified" ? t("another") : t("open")}
          </button>
        ) : null}
      </div>
      {step.kind === "verified" && (
        <p className="mt-1 text-slate-700" data-testid="guest-verified">
          {t("verifiedHint", { orderId: step.orderId })}
        </p>
      )}
      {step.kind === "ask" && (
        <form onSubmit={requestCode} className="mt-2 grid gap-2 sm:grid-cols-[1fr_2fr_auto]">
          <p className="text-slate-600 sm:col-span-3">{t("intro")}</p>
          <label className="block">
            <span className="text-slate-700">{t("orderId")}</span>
            <input
              className={field}
              required
              inputMode="numeric"
              autoComplete="off"
              maxLength={32}
              value={orderId}
              onChange={(e) => setOrderId(e.target.value)}
              data-testid="guest-order-id"
            />
          </label>
          <label className="block">
            <span className="text-slate-700">{t("email")}</span>
            <input
              className={field}
              required
              type="email"
              autoComplete="email"
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="guest-email"
            />
          </label>
          <button
            type="submit"
            disabled={busy}
            className={`${button} self-end`}
            data-testid="guest-send"
          >
            {t("send")}
          </button>
        </form>
      )}
      {step.kind === "code" && (
        <form onSubmit={confirmCode} className="mt-2 flex flex-wrap items-end gap-2">
          <label className="block">
            <span className="text-slate-700">{t("code", { orderId: step.orderId })}</span>
            <input
              className={field}
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              data-testid="guest-code"
            />
          </label>
          <button type="submit" disabled={busy} className={button} data-testid="guest-confirm">
            {t("confirm")}
          </button>
          <button
            type="button"
            className="min-h-11 px-2 text-brand-700 underline"
            onClick={() => {
              setStep({ kind: "ask" });
              setMessage(null);
            }}
          >
            {t("again")}
          </button>
        </form>
      )}
      {message && (
        <p
          role={message.tone === "error" ? "alert" : "status"}
          className={message.tone === "error" ? "mt-1 text-red-700" : "mt-1 text-slate-700"}
          data-testid="guest-message"
        >
          {message.text}
        </p>
      )}
    </section>
  );
}
