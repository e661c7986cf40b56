import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { OpenNewestChat } from "@/components/chat/open-newest-chat";
import { getCurrentUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Chat" };

/** /chat opens the customer's newest chat, or starts the first one. */
export default async function ChatIndexPage() {
  const user = await getCurrentUser(await headers());
  if (!user) redirect("/sign-in?next=/chat");
  if (user.role !== "customer") redirect("/");
  return (
    <div className="flex h-dvh flex-col">
      <AppHeader user={user} />
      <main className="p-6">
        <OpenNewestChat />
      </main>
    </div>
  );
}
