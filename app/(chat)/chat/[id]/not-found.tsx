import Link from "next/link";
import { useTranslations } from "next-intl";

/** Unknown and someone else's chats look the same (and answer HTTP 404), like the API. */
export default function ChatNotFound() {
  const t = useTranslations("chat");
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <div
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
        data-testid="chat-error"
      >
        {t.rich("notFound", {
          link: (chunks) => (
            <Link href="/chat" className="font-medium underline">
              {chunks}
            </Link>
          ),
        })}
      </div>
    </main>
  );
}
