import { useTranslations } from "next-intl";

/** A new chat: what the assistant can do, and two harmless questions to start with. */
export function EmptyChat({ onPick }: { onPick: (text: string) => void }) {
  const t = useTranslations("conversation.empty");
  // The questions are sent as written, so they are in the conversation's language too.
  const suggestions = [t("suggestionStatus"), t("suggestionPolicy")];
  return (
    <div
      className="rounded-xl border border-dashed border-slate-300 bg-white p-5"
      data-testid="chat-empty"
    >
      <h2 className="font-semibold">{t("heading")}</h2>
      <p className="mt-1 text-sm text-slate-700">{t("intro")}</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {suggestions.map((s) => (
          <li key={s}>
            <button
              type="button"
              onClick={() => onPick(s)}
              className="min-h-11 rounded-full border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-600"
              data-testid="chat-suggestion"
            >
              {s}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
