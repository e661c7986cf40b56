"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { createChat, fetchChats } from "@/lib/chat-client/api";

/** Goes to the newest chat, creating the first one when there is none. */
export function OpenNewestChat() {
  const router = useRouter();
  const started = useRef(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // Effects may run twice in development; two runs must not create two chats.
    if (started.current) return;
    started.current = true;
    void (async () => {
      const list = await fetchChats();
      const newest = list.ok ? list.data[0] : undefined;
      if (newest) return router.replace(`/chat/${newest.id}`);
      const created = list.ok ? await createChat() : list;
      if (created.ok) return router.replace(`/chat/${created.data.id}`);
      if (created.status === 401) return router.replace("/sign-in?next=/chat");
      setFailed(true);
    })();
  }, [router]);

  return failed ? (
    <p role="alert" className="text-red-700" data-testid="chat-error">
      Your chats could not be opened. Reload the page to try again.
    </p>
  ) : (
    <p role="status" className="text-slate-600">
      Opening your chat…
    </p>
  );
}
