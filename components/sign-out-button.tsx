"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { authClient } from "@/lib/auth/client";

export function SignOutButton() {
  const t = useTranslations("header");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  // Never wraps or shrinks: on a narrow phone the user's name gives way instead (app-header.tsx).
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await authClient.signOut();
        router.replace("/sign-in");
        router.refresh();
      }}
      className="shrink-0 whitespace-nowrap rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
      data-testid="sign-out"
    >
      {t("signOut")}
    </button>
  );
}
