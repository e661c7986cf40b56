import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { loadChat } from "@/app/(chat)/chat/chat-view";
import { ClientMessages } from "@/components/client-messages";
import { EmbedChat } from "@/components/embed/embed-chat";
import { isLocale } from "@/db/constants";
import { getCurrentUser } from "@/lib/auth/session";
import { embeddedChatId } from "@/lib/chat/service";
import { env } from "@/lib/env";
import { conversationMessages } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("widget");
  return { title: t("title") };
}

/**
 * The embedded chat: one of the customer's chats from this store page (`?chat=` after `/new`),
 * as /chat shows it, without the site's chrome.
 */
export default async function EmbedChatPage({
  searchParams,
}: {
  searchParams: Promise<{ chat?: string | string[]; locale?: string | string[] }>;
}) {
  const user = await getCurrentUser(await headers());
  if (user?.role !== "customer") redirect("/embed");
  const { chat: asked, locale: requested } = await searchParams;
  const chatId = await embeddedChatId({
    userId: user.id,
    embedOrigin: user.embedOrigin,
    chatId: typeof asked === "string" ? asked : undefined,
  });
  const initial = await loadChat(chatId, user.id);
  if (!initial.ok) redirect("/embed");
  // The widget's language (?locale=, as /embed got it), else the interface language.
  const t = await getTranslations({
    locale: isLocale(requested) ? requested : await getLocale(),
    namespace: "embed",
  });
  return (
    <ClientMessages namespaces={["chat"]}>
      <EmbedChat
        allowed={env().EMBED_ALLOWED_ORIGINS}
        snapshot={initial.data}
        // A visitor who is not signed in at the store: the policy only, and where to sign in.
        notice={user.guest ? t("signInAtStore") : null}
        visitor={user.guest}
        conversation={conversationMessages()}
      />
    </ClientMessages>
  );
}
