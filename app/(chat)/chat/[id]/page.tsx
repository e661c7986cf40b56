import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { ChatScreen } from "@/components/chat/chat-screen";
import { getCurrentUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Chat" };

export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getCurrentUser(await headers());
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(`/chat/${id}`)}`);
  // Chats are the customers'; staff read them on the audit page.
  if (user.role !== "customer") redirect("/");
  return (
    <div className="flex h-dvh flex-col">
      <AppHeader user={user} />
      <ChatScreen chatId={id} />
    </div>
  );
}
