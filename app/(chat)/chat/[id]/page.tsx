import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
import { ChatScreen } from "@/components/chat/chat-screen";
import { ClientMessages } from "@/components/client-messages";
import { getCurrentUser } from "@/lib/auth/session";
import { getChatView } from "@/lib/chat/service";
import { parseChatSnapshot } from "@/lib/chat-client/schemas";
import { isAppError } from "@/lib/errors";
import { conversationMessages } from "@/lib/i18n/messages";

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
  return (
    <div className="flex h-dvh flex-col">
      <AppHeader user={user} width="full" />
      <ClientMessages namespaces={["chat"]}>
        <ChatScreen chatId={id} initial={initial} conversation={conversationMessages()} />
      </ClientMessages>
    </div>
  );
}

/**
 * The same view GET /api/chats/{id} returns (cards carry their current state), rendered on the
 * server so a reload shows the conversation, and an open proposal, without a loading step.
 * It goes through the browser's schema too: the client never renders what it could not parse.
 */
async function loadChat(chatId: string, userId: string) {
  try {
    const snapshot = parseChatSnapshot(await getChatView({ chatId, userId }));
    return snapshot ? { ok: true as const, data: snapshot } : { ok: false as const, status: 500 };
  } catch (err) {
    if (isAppError(err) && err.code === "not_found") return { ok: false as const, status: 404 };
    throw err;
  }
}
