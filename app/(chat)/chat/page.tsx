import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getCurrentUser } from "@/lib/auth/session";
import { listChats, startChat } from "@/lib/chat/service";
import { ChatView, loadChat } from "./chat-view";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: t("chat") };
}

/**
 * /chat shows the customer's newest chat, in this first response rather than through a redirect
 * to /chat/{id} (which cost a round trip, about 0.8 s in Lighthouse, before the page); the
 * address bar then shows /chat/{id}. Only a customer with no chat at all gets one created here,
 * so revisiting /chat never piles up empty chats (and there is nothing to supersede).
 */
export default async function ChatIndexPage() {
  const user = await getCurrentUser(await headers());
  if (!user) redirect("/sign-in?next=/chat");
  if (user.role !== "customer") redirect("/");
  const newest =
    (await listChats({ userId: user.id }))[0] ?? (await startChat({ userId: user.id }));
  const initial = await loadChat(newest.id, user.id);
  return <ChatView user={user} chatId={newest.id} initial={initial} canonical />;
}
