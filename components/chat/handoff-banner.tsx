"use client";
import { useTranslations } from "next-intl";
import type { Handoff } from "@/lib/chat-client/schemas";

/** Above the composer while a person has the chat: who answers now. */
export function HandoffBanner({ handoff }: { handoff: Handoff }) {
  const t = useTranslations("conversation.handoff");
  return (
    <p
      role="status"
      className="border-t border-emerald-200 bg-emerald-50 px-4 py-2 text-center text-sm text-emerald-900"
      data-testid="handoff-banner"
      data-status={handoff.status}
    >
      {handoff.status === "active" && handoff.staff
        ? t("active", { name: handoff.staff.name })
        : t("waiting")}
    </p>
  );
}
