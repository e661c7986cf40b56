import Link from "next/link";
import { useTranslations } from "next-intl";
import type { TranscriptItem, TranscriptMessage } from "@/lib/audit/transcript";
import { UtcTime } from "./utc-time";

const brief = (v: unknown) => {
  const s = JSON.stringify(v ?? null);
  return s.length > 160 ? `${s.slice(0, 159)}…` : s;
};

function Item({ item }: { item: TranscriptItem }) {
  const t = useTranslations("audit.transcript");
  switch (item.kind) {
    case "text":
      // Plain text (not markdown): staff see exactly what was written, markup included.
      return <p className="whitespace-pre-wrap break-words">{item.text}</p>;
    case "tool":
      return (
        <p className="font-mono text-xs text-slate-600" data-testid="transcript-tool">
          ⚙{" "}
          <span translate="no">
            {item.tool} {brief(item.input)}
          </span>{" "}
          →{" "}
          {item.errorText ? (
            t("toolError", { text: item.errorText })
          ) : (
            <span translate="no">{brief(item.output)}</span>
          )}
        </p>
      );
    case "proposal":
      return (
        <p
          className="rounded-md border border-sky-200 bg-sky-50 px-2 py-1 text-xs"
          data-testid="transcript-proposal"
        >
          {t.rich("proposal", {
            call: () => (
              <span translate="no">
                {item.tool} {brief(item.arguments)}
              </span>
            ),
            link: (chunks) => (
              <Link href={`/audit/actions/${item.actionId}`} className="underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      );
    case "outcome":
      return (
        <p className="text-xs text-slate-700" data-testid="transcript-outcome">
          {t.rich("decision", {
            status: item.status,
            link: () => (
              <Link href={`/audit/actions/${item.actionId}`} className="underline">
                {item.actionId.slice(0, 8)}
              </Link>
            ),
          })}
        </p>
      );
    case "staff":
      return (
        <p className="text-xs font-medium text-emerald-800" data-testid="transcript-staff">
          {t("staffAuthor", { name: item.name })}
        </p>
      );
    default:
      return <p className="text-xs text-slate-500">[{item.type}]</p>;
  }
}

/** The chat as the customer saw it, read-only: no composer, no confirm buttons. */
export function TranscriptView({ messages }: { messages: TranscriptMessage[] }) {
  const t = useTranslations("audit.transcript");
  if (messages.length === 0) return <p className="text-slate-600">{t("empty")}</p>;
  return (
    <ol className="grid gap-3" data-testid="transcript">
      {messages.map((m) => (
        <li
          key={m.id}
          className={`rounded-xl border p-3 text-sm ${m.role === "user" ? "border-brand-100 bg-brand-50" : m.role === "staff" ? "border-emerald-200 bg-emerald-50" : "border-slate-200 bg-white"}`}
          data-testid="transcript-message"
          data-role={m.role}
        >
          <p className="mb-1 text-xs text-slate-600">
            <span className="font-medium text-slate-800">{t("role", { role: m.role })}</span> ·{" "}
            <UtcTime at={m.at} />
            {m.model && ` · ${m.model}`}
            {m.promptVersion && ` · ${t("prompt", { version: m.promptVersion })}`}
          </p>
          <div className="grid gap-1">
            {m.items.map((item, i) => (
              // Parts have no stable id of their own; their position in a stored message never changes.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <Item key={i} item={item} />
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}
