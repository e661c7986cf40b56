import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EmbedBoot } from "@/components/embed/embed-boot";
import { isLocale } from "@/db/constants";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("widget");
  return { title: t("title") };
}

/** The widget's iframe starts here: it waits for the store's token (components/embed). */
export default async function EmbedPage({
  searchParams,
}: {
  searchParams: Promise<{ locale?: string }>;
}) {
  const requested = (await searchParams).locale;
  const locale = isLocale(requested) ? requested : "en";
  const t = await getTranslations({ locale, namespace: "embed" });
  return (
    <EmbedBoot
      allowed={env().EMBED_ALLOWED_ORIGINS}
      locale={locale}
      texts={{
        connecting: t("connecting"),
        signInAtStore: t("signInAtStore"),
        failed: t.raw("failed") as string,
        notFramed: t("notFramed"),
      }}
    />
  );
}
