import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import type { ChatSummary } from "@/lib/chat-client/schemas";

type Props = {
  /** null while loading. */
  chats: ChatSummary[] | "failed" | null;
  currentId: string;
  /** Small screens: the list is a panel the customer opens from the toolbar. */
  open: boolean;
  id: string;
};

/** The customer's chats, newest first; the current one is marked for screen readers too. */
export function ChatSidebar({ chats, currentId, open, id }: Props) {
  const t = useTranslations("chat");
  const format = useFormatter();
  return (
    <nav
      id={id}
      aria-label={t("listHeading")}
      className={`${open ? "block" : "hidden"} w-full shrink-0 overflow-y-auto border-b border-slate-200 bg-white md:block md:w-64 md:border-r md:border-b-0`}
    >
      <h2 className="px-4 pt-4 pb-2 text-sm font-semibold text-slate-700">{t("listHeading")}</h2>
      {chats === null ? (
        <p className="px-4 pb-4 text-sm text-slate-600">{t("listLoading")}</p>
      ) : chats === "failed" ? (
        <p className="px-4 pb-4 text-sm text-slate-700">{t("listFailed")}</p>
      ) : (
        <ul className="max-h-60 overflow-y-auto pb-2 md:max-h-none" data-testid="chat-list">
          {chats.map((c) => {
            const current = c.id === currentId;
            return (
              <li key={c.id}>
                <Link
                  href={`/chat/${c.id}`}
                  aria-current={current ? "page" : undefined}
                  className={`block px-4 py-2 text-sm hover:bg-slate-100 ${current ? "bg-brand-50 font-medium text-brand-800" : "text-slate-800"}`}
                  data-testid="chat-list-item"
                >
                  <span className="block truncate">{c.title || t("untitled")}</span>
                  <span className="block text-xs font-normal text-slate-600">
                    {/* When a chat was started, to the minute: seconds are noise in a list. */}
                    {format.dateTime(new Date(c.createdAt), "started")}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
