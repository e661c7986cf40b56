const SUGGESTIONS = ["Where is my order 8041?", "What is your return policy?"];

/** A new chat: what the assistant can do, and two harmless questions to start with. */
export function EmptyChat({ onPick }: { onPick: (text: string) => void }) {
  return (
    <div
      className="rounded-xl border border-dashed border-slate-300 bg-white p-5"
      data-testid="chat-empty"
    >
      <h2 className="font-semibold">How can we help?</h2>
      <p className="mt-1 text-sm text-slate-700">
        Ask where an order is, what our return terms are, or ask for a return. The assistant can
        only propose a return: nothing happens until you press Confirm.
      </p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {SUGGESTIONS.map((s) => (
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
