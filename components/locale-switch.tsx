"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { LOCALES } from "@/db/constants";
import { setLocale } from "@/lib/i18n/actions";

/**
 * Each language is offered under its own name, marked with its own `lang` so a screen reader
 * pronounces it right (and the e2e language check knows "English" on a Russian page is meant).
 */
export function LocaleSwitch() {
  const t = useTranslations("localeSwitch");
  const locale = useLocale();
  const router = useRouter();
  const [busy, startTransition] = useTransition();
  return (
    <select
      aria-label={t("label")}
      value={locale}
      disabled={busy}
      onChange={(e) => {
        const next = e.target.value;
        startTransition(async () => {
          await setLocale(next);
          router.refresh();
        });
      }}
      className="rounded-md border border-slate-300 bg-white px-1 py-1 text-sm text-slate-700"
      data-testid="locale-switch"
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {t("name", { locale: l })}
        </option>
      ))}
    </select>
  );
}
