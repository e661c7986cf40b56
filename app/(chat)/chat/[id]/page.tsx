import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getCurrentUser } from "@/lib/auth/session";
import { ChatView, loadChat } from "../chat-view";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: t("chat") };
}

export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getCurrentUser(await headers());
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(`/chat/${id}`)}`);
  // Chats are the customers'; staff read them on the audit page.
  if (user.role !== "customer") redirect("/");
  const initial = await loadChat(id, user.id);
  if (!initial.ok && initial.status === 404) notFound();
  return <ChatView user={user} chatId={id} initial={initial} />;
}
