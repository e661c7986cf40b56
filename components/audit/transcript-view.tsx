import Link from "next/link";
import type { TranscriptItem, TranscriptMessage } from "@/lib/audit/transcript";
import { own } from "@/lib/own";
import { formatUtc } from "./format";

const brief = (v: unknown) => {
  const s = JSON.stringify(v ?? null);
  return s.length > 160 ? `${s.slice(0, 159)}…` : s;
};

function Item({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case "text":
      // Plain text (not markdown): staff see exactly what was written, markup included.
      return <p className="whitespace-pre-wrap break-words">{item.text}</p>;
    case "tool":
      return (
        <p className="font-mono text-xs text-slate-600" data-testid="transcript-tool">
          ⚙ {item.tool} {brief(item.input)} →{" "}
          {item.errorText ? `error: ${item.errorText}` : brief(item.output)}
        </p>
      );
    case "proposal":
      return (
        <p
          className="rounded-md border border-sky-200 bg-sky-50 px-2 py-1 text-xs"
          data-testid="transcript-proposal"
        >
          Confirmation card shown: {item.tool} {brief(item.arguments)} ·{" "}
          <Link href={`/audit/actions/${item.actionId}`} className="underline">
            action timeline
          </Link>
        </p>
      );
    case "outcome":
      return (
        <p className="text-xs text-slate-700" data-testid="transcript-outcome">
          Decision: action{" "}
          <Link href={`/audit/actions/${item.actionId}`} className="underline">
            {item.actionId.slice(0, 8)}
          </Link>{" "}
          is {item.status}
        </p>
      );
    default:
      return <p className="text-xs text-slate-500">[{item.type}]</p>;
  }
}

const ROLE: Record<TranscriptMessage["role"], string> = {
  user: "Customer",
  assistant: "Assistant",
  system: "System",
};

/** The chat as the customer saw it, read-only: no composer, no confirm buttons. */
export function TranscriptView({ messages }: { messages: TranscriptMessage[] }) {
  if (messages.length === 0) return <p className="text-slate-600">This chat has no messages.</p>;
  return (
    <ol className="grid gap-3" data-testid="transcript">
      {messages.map((m) => (
        <li
          key={m.id}
          className={`rounded-xl border p-3 text-sm ${m.role === "user" ? "border-brand-100 bg-brand-50" : "border-slate-200 bg-white"}`}
          data-testid="transcript-message"
          data-role={m.role}
        >
          <p className="mb-1 text-xs text-slate-600">
            <span className="font-medium text-slate-800">{own(ROLE, m.role) ?? m.role}</span> ·{" "}
            <time dateTime={m.at.toISOString()}>{formatUtc(m.at)}</time>
            {m.model && ` · ${m.model}`}
            {m.promptVersion && ` · prompt ${m.promptVersion}`}
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
