import type { Metadata, Viewport } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { ClientMessages } from "@/components/client-messages";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return {
    title: { default: t("title"), template: t("titleTemplate") },
    description: t("description"),
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The request's interface language (lib/i18n/request.ts). The header's client components
  // (language switch, sign-out) are on every page; pages add what their own ones need.
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-dvh">
        <ClientMessages namespaces={["localeSwitch", "header"]}>{children}</ClientMessages>
      </body>
    </html>
  );
}
