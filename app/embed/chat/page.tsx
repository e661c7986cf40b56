import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { loadChat } from "@/app/(chat)/chat/chat-view";
import { ClientMessages } from "@/components/client-messages";
import { EmbedChat } from "@/components/embed/embed-chat";
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
  searchParams: Promise<{ chat?: string | string[] }>;
}) {
  const user = await getCurrentUser(await headers());
  if (user?.role !== "customer") redirect("/embed");
  const asked = (await searchParams).chat;
  const chatId = await embeddedChatId({
    userId: user.id,
    embedOrigin: user.embedOrigin,
    chatId: typeof asked === "string" ? asked : undefined,
  });
  const initial = await loadChat(chatId, user.id);
  if (!initial.ok) redirect("/embed");
  return (
    <ClientMessages namespaces={["chat"]}>
      <EmbedChat
        allowed={env().EMBED_ALLOWED_ORIGINS}
        snapshot={initial.data}
        conversation={conversationMessages()}
      />
    </ClientMessages>
  );
}
