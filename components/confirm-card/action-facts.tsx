import type { PendingAction } from "@/lib/chat-client/schemas";

/**
 * The facts the customer agrees to, as the action's own tool describes them (rows and the
 * highlighted amount), computed by the server from the stored plan and arguments: exactly what
 * Confirm will execute, not what the model said about it.
 */
export function ActionFacts({ view }: { view: PendingAction["view"] }) {
  return (
    <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
      {view.rows.map((row) => (
        <div key={row.key} className="contents">
          <dt className="text-slate-600">{row.label}</dt>
          <dd className="wrap-anywhere" data-testid={`confirm-${row.key}`}>
            {Array.isArray(row.value) ? (
              <ul>
                {row.value.map((line, i) => (
                  // Lines can repeat (two identical items); their position is their identity.
                  // biome-ignore lint/suspicious/noArrayIndexKey: static list, never reordered
                  <li key={i}>{line}</li>
                ))}
              </ul>
            ) : (
              row.value
            )}
          </dd>
        </div>
      ))}
      {view.amount && (
        <>
          <dt className="text-slate-600">{view.amount.label}</dt>
          <dd data-testid={`confirm-${view.amount.key}`}>
            <span className="font-semibold">{view.amount.value}</span>
            {view.amount.detail ? ` ${view.amount.detail}` : ""}
          </dd>
        </>
      )}
    </dl>
  );
}
