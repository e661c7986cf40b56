/**
 * The script a store's page loads (/widget.js): a launcher button in an open shadow root (tests
 * and assistive technology reach it; the store's CSS does not), and on the first click our chat
 * in an iframe at /embed, which gets the store's token by postMessage.
 *
 * app/widget.js/route.ts serves this one function's source, called with its configuration, so it
 * must stay self-contained: no imports, nothing from this module's scope, no dependencies, and no
 * request to anyone but our own origin (the iframe). It is type-checked here like the rest.
 */
export type WidgetTexts = { open: string; close: string; title: string };

export type WidgetConfig = {
  /** Our origin: the iframe's, and the only one whose messages are accepted. */
  origin: string;
  /** False without EMBED_ALLOWED_ORIGINS: the script says so in the console and draws nothing. */
  enabled: boolean;
  source: string;
  messages: Record<
    "ready" | "boot" | "session" | "close" | "resize" | "shutdown" | "signedOut",
    string
  >;
  texts: Record<"en" | "ru", WidgetTexts>;
};

type BootOptions = { token?: string | null; locale?: string };

export function widgetRuntime(config: WidgetConfig): void {
  const w = window as unknown as Window & {
    ReturnsDesk?: { boot: (o?: BootOptions) => void; shutdown: () => void };
  };
  if (w.ReturnsDesk) return;
  const M = config.messages;
  let host: HTMLElement | null = null;
  let button: HTMLButtonElement | null = null;
  let panel: HTMLElement | null = null;
  let slot: HTMLElement | null = null;
  let frame: HTMLIFrameElement | null = null;
  let token: string | null = null;
  let locale: "en" | "ru" = "en";
  let open = false;

  const send = (type: string, data?: Record<string, unknown>) =>
    frame?.contentWindow?.postMessage({ source: config.source, type, ...data }, config.origin);

  function onMessage(event: MessageEvent) {
    // Only our own frame, from our own origin: any other window's message is ignored.
    if (!frame || event.source !== frame.contentWindow || event.origin !== config.origin) return;
    const data = event.data as { source?: string; type?: string; height?: number } | null;
    if (!data || data.source !== config.source) return;
    if (data.type === M.ready) {
      // The token is for one session start: it leaves this page's memory once handed over.
      send(M.boot, { token, locale });
      token = null;
    } else if (data.type === M.close) {
      toggle(false);
    } else if (data.type === M.resize && typeof data.height === "number" && panel) {
      panel.style.height = `${Math.max(320, Math.min(data.height, 640))}px`;
    } else if (data.type === M.signedOut) {
      remove();
    }
  }

  function onKey(event: KeyboardEvent) {
    if (event.key === "Escape" && open) toggle(false);
  }

  function toggle(show: boolean) {
    if (!panel || !button) return;
    open = show;
    panel.hidden = !show;
    button.setAttribute("aria-expanded", String(show));
    if (show && !frame) {
      frame = document.createElement("iframe");
      frame.title = config.texts[locale].title;
      frame.src = `${config.origin}/embed?locale=${locale}`;
      frame.setAttribute("allow", "clipboard-write");
      frame.style.cssText = "border:0;width:100%;height:100%;display:block";
      slot?.appendChild(frame);
    }
    if (show) frame?.focus();
    else button.focus();
  }

  function remove() {
    window.removeEventListener("message", onMessage);
    document.removeEventListener("keydown", onKey);
    host?.remove();
    host = button = panel = slot = frame = null;
    open = false;
  }

  function boot(options: BootOptions = {}) {
    if (!config.enabled) {
      console.warn(
        `Returns Desk: embedding is off on ${config.origin} (EMBED_ALLOWED_ORIGINS is not set).`,
      );
      return;
    }
    if (host) remove();
    locale = options.locale === "ru" ? "ru" : "en";
    token = options.token ?? null;
    const t = config.texts[locale];
    host = document.createElement("div");
    host.setAttribute("data-returns-desk", "");
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML =
      "<style>" +
      ":host{all:initial}" +
      "button.l{position:fixed;right:16px;bottom:16px;z-index:2147483646;min-height:48px;" +
      "padding:0 18px;border:0;border-radius:24px;background:#1d4ed8;color:#fff;" +
      "font:600 15px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}" +
      "button.l:focus-visible,button.x:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}" +
      "div.p{position:fixed;right:16px;bottom:76px;z-index:2147483647;width:380px;height:600px;" +
      "max-width:calc(100vw - 32px);max-height:calc(100dvh - 96px);background:#fff;" +
      "border-radius:12px;overflow:hidden;box-shadow:0 8px 32px rgba(0,0,0,.3);" +
      "display:flex;flex-direction:column}" +
      "div.p[hidden]{display:none}" +
      "div.h{display:flex;align-items:center;justify-content:space-between;padding:4px 8px 4px 14px;" +
      "background:#1d4ed8;color:#fff;font:600 15px/1.2 system-ui,sans-serif}" +
      "button.x{min-width:44px;min-height:44px;border:0;background:none;color:#fff;font:24px/1 system-ui;" +
      "cursor:pointer}" +
      "div.b{flex:1;min-height:0}" +
      "@media (max-width:480px){div.p{right:0;left:0;bottom:0;width:100vw;max-width:100vw;" +
      "height:calc(100dvh - 72px);max-height:none;border-radius:12px 12px 0 0}}" +
      "</style>";
    button = document.createElement("button");
    button.type = "button";
    button.className = "l";
    button.textContent = t.open;
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-controls", "rd-panel");
    panel = document.createElement("div");
    panel.className = "p";
    panel.id = "rd-panel";
    panel.hidden = true;
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", t.title);
    const head = document.createElement("div");
    head.className = "h";
    head.textContent = t.title;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "x";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", t.close);
    close.addEventListener("click", () => toggle(false));
    head.appendChild(close);
    slot = document.createElement("div");
    slot.className = "b";
    panel.append(head, slot);
    button.addEventListener("click", () => toggle(!open));
    root.append(panel, button);
    document.body.appendChild(host);
    window.addEventListener("message", onMessage);
    document.addEventListener("keydown", onKey);
  }

  function shutdown() {
    if (frame) send(M.shutdown);
    else remove();
  }

  w.ReturnsDesk = { boot, shutdown };
}
