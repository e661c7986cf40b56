import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";
import { listChats, startChat } from "@/lib/chat/service";

export const dynamic = "force-dynamic";

/**
 * /chat opens the customer's newest chat. Only a customer with no chat at all gets one created
 * here, so revisiting /chat never piles up empty chats (and there is nothing to supersede).
 */
export default async function ChatIndexPage() {
  const user = await getCurrentUser(await headers());
  if (!user) redirect("/sign-in?next=/chat");
  if (user.role !== "customer") redirect("/");
  const newest =
    (await listChats({ userId: user.id }))[0] ?? (await startChat({ userId: user.id }));
  redirect(`/chat/${newest.id}`);
}
