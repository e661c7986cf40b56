import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { loadChat } from "@/app/(chat)/chat/chat-view";
import { ClientMessages } from "@/components/client-messages";
import { EmbedChat } from "@/components/embed/embed-chat";
import { getCurrentUser } from "@/lib/auth/session";
import { listChats, startChat } from "@/lib/chat/service";
import { env } from "@/lib/env";
import { conversationMessages } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("widget");
  return { title: t("title") };
}

/** The embedded chat: the customer's newest chat, as /chat shows it, without the site's chrome. */
export default async function EmbedChatPage() {
  const user = await getCurrentUser(await headers());
  if (user?.role !== "customer") redirect("/embed");
  const newest =
    (await listChats({ userId: user.id }))[0] ?? (await startChat({ userId: user.id }));
  const initial = await loadChat(newest.id, user.id);
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
