import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { ClientMessages } from "@/components/client-messages";
import { LocaleSwitch } from "@/components/locale-switch";
import { SignInForm } from "@/components/sign-in-form";
import { offeredDemoAccounts } from "@/lib/auth/demo";
import { getCurrentUser } from "@/lib/auth/session";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: t("signIn") };
}

export default async function SignInPage() {
  if (await getCurrentUser(await headers())) redirect("/");
  const t = await getTranslations("signIn");
  const tHeader = await getTranslations("header");
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-12">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold">{tHeader("brand")}</h1>
        {/* Before sign-in the choice is kept by this browser only. */}
        <div className="ml-auto">
          <LocaleSwitch />
        </div>
      </div>
      <p className="mt-1 mb-8 text-slate-600">{t("intro")}</p>
      <ClientMessages namespaces={["signIn"]}>
        <Suspense>
          <SignInForm demoAccounts={await offeredDemoAccounts()} />
        </Suspense>
      </ClientMessages>
    </main>
  );
}
