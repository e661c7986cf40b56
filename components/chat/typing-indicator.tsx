import { useTranslations } from "next-intl";

/** Shown while the assistant works; the dots only bounce for people who allow motion. */
export function TypingIndicator() {
  const t = useTranslations("conversation");
  return (
    <div
      role="status"
      className="flex items-center gap-2 text-sm text-slate-600"
      data-testid="typing-indicator"
    >
      <span aria-hidden="true" className="flex gap-1">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 rounded-full bg-slate-400 motion-safe:animate-bounce"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      {t("typing")}
    </div>
  );
}
