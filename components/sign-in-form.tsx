"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { authClient } from "@/lib/auth/client";
import type { DemoAccount } from "@/lib/auth/demo";
import { safeNext } from "@/lib/auth/safe-next";

const DEMO_PASSWORD = "returns-demo";

/** `demoAccounts`: the demo accounts that exist here (lib/auth/demo.ts); none, no demo section. */
export function SignInForm({ demoAccounts }: { demoAccounts: DemoAccount[] }) {
  const t = useTranslations("signIn");
  const locale = useLocale();
  const router = useRouter();
  const next = safeNext(useSearchParams().get("next"), globalThis.location?.origin);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signIn(emailValue: string, passwordValue: string) {
    setBusy(true);
    setError(null);
    const { error: err } = await authClient.signIn.email({
      email: emailValue,
      password: passwordValue,
    });
    if (err) {
      setBusy(false);
      // better-auth's own messages are English-only; the status says enough.
      setError(
        err.status === 401 ? t("wrongPassword") : err.status === 429 ? t("tooMany") : t("failed"),
      );
      return;
    }
    router.replace(next);
    router.refresh();
  }

  /** "Find an order without an account": a guest's session, then the chat with its form. */
  async function startGuest() {
    setBusy(true);
    setError(null);
    const res = await fetch("/api/guest/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locale: locale === "ru" ? "ru" : "en" }),
    }).catch(() => null);
    if (!res?.ok) {
      setBusy(false);
      setError(res?.status === 429 ? t("tooMany") : t("guestFailed"));
      return;
    }
    router.replace("/chat");
    router.refresh();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void signIn(email, password);
  }

  return (
    <div className="space-y-8">
      <form
        onSubmit={onSubmit}
        className="space-y-4"
        aria-describedby={error ? "sign-in-error" : undefined}
      >
        <div>
          <label htmlFor="email" className="block text-sm font-medium text-slate-700">
            {t("email")}
          </label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
            data-testid="sign-in-email"
          />
        </div>
        <div>
          <label htmlFor="password" className="block text-sm font-medium text-slate-700">
            {t("password")}
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
            data-testid="sign-in-password"
          />
        </div>
        {error && (
          <p
            id="sign-in-error"
            role="alert"
            className="text-sm text-red-700"
            data-testid="sign-in-error"
          >
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          data-testid="sign-in-submit"
        >
          {busy ? t("submitting") : t("submit")}
        </button>
      </form>
      <section aria-labelledby="guest-heading" className="border-t border-slate-200 pt-6">
        <p id="guest-heading" className="text-sm text-slate-600">
          {t("guestHint")}
        </p>
        <button
          type="button"
          disabled={busy}
          onClick={() => void startGuest()}
          className="mt-2 w-full rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium hover:border-brand-600 disabled:opacity-60"
          data-testid="sign-in-guest"
        >
          {t("guest")}
        </button>
      </section>
      {demoAccounts.length > 0 && (
        <section aria-labelledby="demo-heading">
          <h2 id="demo-heading" className="text-sm font-semibold text-slate-700">
            {t.rich("demoHeading", {
              password: DEMO_PASSWORD,
              code: (chunks) => <code>{chunks}</code>,
            })}
          </h2>
          <ul className="mt-2 grid gap-2">
            {demoAccounts.map((a) => (
              <li key={a.email}>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void signIn(a.email, DEMO_PASSWORD)}
                  className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-left hover:border-brand-600 disabled:opacity-60"
                  data-testid={`demo-${a.email.split("@")[0]}`}
                >
                  <span className="font-medium">{t("demo", { who: a.who })}</span>
                  <span className="block text-xs text-slate-600">
                    {a.email} · {t("demoHint", { who: a.who })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
