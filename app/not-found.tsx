import Link from "next/link";
import { useTranslations } from "next-intl";

/** Any unknown address, in the reader's language (Next's built-in page is English only). */
export default function NotFound() {
  const t = useTranslations("notFound");
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-xl font-semibold">{t("heading")}</h1>
      <p className="mt-2 text-slate-700">
        {t.rich("body", {
          link: (chunks) => (
            <Link href="/" className="font-medium text-brand-700 underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
    </main>
  );
}
