import { useTranslations } from "next-intl";

/** Stored JSON shown as indented text. React escapes it: model or customer text inside can
 *  never become markup. */
export function JsonView({
  value,
  label,
  testId,
}: {
  value: unknown;
  label: string;
  testId?: string;
}) {
  const t = useTranslations("audit");
  return (
    <section aria-label={label} className="min-w-0">
      <h3 className="mb-1 text-sm font-medium text-slate-700">{label}</h3>
      {value === null || value === undefined ? (
        <p className="text-sm text-slate-500">{t("none")}</p>
      ) : (
        // Focusable so keyboard users can scroll a long plan (axe: scrollable-region-focusable).
        // Stored data, not prose: translate="no" keeps it from page translators (and the e2e
        // language check).
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          translate="no"
          className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-900 p-3 text-xs text-slate-100"
          data-testid={testId}
        >
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </section>
  );
}
