"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { reviseAction } from "@/lib/api-client/browser";
import type { PendingAction } from "@/lib/chat-client/schemas";

type Fields = NonNullable<PendingAction["edit"]>["fields"];

/**
 * The card's Edit form: the tool's editable fields only (never the order), each as the
 * server described it (a choice worded by the tool, free text, or one line of an address). Saving asks the server to
 * revise; it plans and checks the policy again and answers with a new proposal, which the chat
 * then shows in place of this one.
 */
export function EditForm({
  actionId,
  fields,
  onSaved,
  onClose,
}: {
  actionId: string;
  fields: Fields;
  onSaved: () => void;
  onClose: () => void;
}) {
  const t = useTranslations("conversation.approval");
  const formId = useId();
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(fields.map((f) => [f.name, f.value ?? ""])),
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    // Only what changed; an emptied text is sent as null (the tool stores null for none). A
    // line of a structured field (`address.city`) sends the whole object, every line as shown.
    const changes: Record<string, unknown> = {};
    const grouped: Record<string, Record<string, string | null>> = {};
    const touched = new Set<string>();
    for (const f of fields) {
      const v = values[f.name] ?? "";
      const [group, key] = f.name.split(".", 2) as [string, string | undefined];
      if (key !== undefined) {
        grouped[group] = { ...grouped[group], [key]: v === "" ? null : v };
        if (v !== (f.value ?? "")) touched.add(group);
      } else if (v !== (f.value ?? "")) changes[f.name] = v === "" && !f.options ? null : v;
    }
    for (const group of touched) changes[group] = grouped[group];
    if (Object.keys(changes).length === 0) {
      setBusy(false);
      onClose();
      return;
    }
    const r = await reviseAction(actionId, changes);
    setBusy(false);
    if (r.ok) onSaved();
    else setProblem(r.error?.code === "revision_limit" ? t("revisionLimit") : t("editProblem"));
  }

  return (
    <form
      onSubmit={(e) => void save(e)}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="edit-form"
      aria-labelledby={`${formId}-title`}
    >
      <p id={`${formId}-title`} className="text-sm font-medium">
        {t("editTitle")}
      </p>
      {fields.map((f) => (
        <div key={f.name} className="block text-sm">
          <label htmlFor={`${formId}-${f.name}`} className="text-slate-700">
            {f.label}
          </label>
          {f.options ? (
            <select
              id={`${formId}-${f.name}`}
              className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-2"
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              data-testid={`edit-${f.name}`}
            >
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : f.name.includes(".") ? (
            <input
              id={`${formId}-${f.name}`}
              className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-2"
              maxLength={f.maxLength ?? undefined}
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              data-testid={`edit-${f.name.replace(".", "-")}`}
            />
          ) : (
            <textarea
              id={`${formId}-${f.name}`}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white p-2"
              rows={2}
              maxLength={f.maxLength ?? undefined}
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              data-testid={`edit-${f.name}`}
            />
          )}
        </div>
      ))}
      {problem && (
        <p role="alert" className="text-sm text-red-700" data-testid="edit-problem">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          data-testid="edit-save"
        >
          {t(busy ? "saving" : "save")}
        </button>
        <button
          type="button"
          onClick={onClose}
          disabled={busy}
          className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800"
        >
          {t("discard")}
        </button>
      </div>
    </form>
  );
}
