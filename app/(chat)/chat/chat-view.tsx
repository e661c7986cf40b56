import { AppHeader } from "@/components/app-header";
import { ChatScreen } from "@/components/chat/chat-screen";
import { ClientMessages } from "@/components/client-messages";
import type { CurrentUser } from "@/lib/auth/session";
import { getChatView } from "@/lib/chat/service";
import { parseChatSnapshot } from "@/lib/chat-client/schemas";
import { isAppError } from "@/lib/errors";
import { conversationMessages } from "@/lib/i18n/messages";

/**
 * The same view GET /api/chats/{id} returns (cards carry their current state), rendered on the
 * server so a reload shows the conversation, and an open proposal, without a loading step.
 * It goes through the browser's schema too: the client never renders what it could not parse.
 */
export async function loadChat(chatId: string, userId: string) {
  try {
    const snapshot = parseChatSnapshot(await getChatView({ chatId, userId }));
    return snapshot ? { ok: true as const, data: snapshot } : { ok: false as const, status: 500 };
  } catch (err) {
    if (isAppError(err) && err.code === "not_found") return { ok: false as const, status: 404 };
    throw err;
  }
}

/**
 * One customer's chat page: what /chat/{id} renders, and what /chat renders for the newest chat
 * in its first response (a redirect there cost a round trip before anything showed). `canonical`
 * then has the browser show /chat/{id} in the address bar, so a reload, a bookmark or a copied
 * link keeps naming that chat.
 */
export function ChatView({
  user,
  chatId,
  initial,
  canonical = false,
}: {
  user: CurrentUser;
  chatId: string;
  initial: Awaited<ReturnType<typeof loadChat>>;
  canonical?: boolean;
}) {
  return (
    <div className="flex h-dvh flex-col">
      <AppHeader user={user} width="full" />
      <ClientMessages namespaces={["chat"]}>
        <ChatScreen
          chatId={chatId}
          initial={initial}
          conversation={conversationMessages()}
          canonical={canonical}
          guest={user.guest}
        />
      </ClientMessages>
    </div>
  );
}
