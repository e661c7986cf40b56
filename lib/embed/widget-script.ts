import "server-only";
import { EMBED_MESSAGES, EMBED_SOURCE } from "./protocol";
import { type WidgetConfig, widgetRuntime } from "./widget-runtime";

/**
 * /widget.js: the runtime's own source called with this server's configuration. The function is
 * self-contained (widget-runtime.ts), so its source runs as is on the store's page.
 */
export function widgetScript(config: Omit<WidgetConfig, "source" | "messages">): string {
  const full: WidgetConfig = { ...config, source: EMBED_SOURCE, messages: EMBED_MESSAGES };
  // JSON inside a script: "<" escaped so no value can close a <script> it is inlined into.
  const json = JSON.stringify(full).replaceAll("<", "\\u003c");
  return `"use strict";(${widgetRuntime.toString()})(${json});\n`;
}
