import { NextIntlClientProvider } from "next-intl";
import { type ComponentProps, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/chat/markdown";
import { splitIssuedIds } from "@/lib/chat-client/issued-ids";
import { messagesFor } from "@/lib/i18n/messages";

const en = messagesFor("en");

const html = (text: string) =>
  renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      // children come as the third argument
      { locale: "en", messages: en } as ComponentProps<typeof NextIntlClientProvider>,
      createElement(Markdown, { text }),
    ),
  );

describe("assistant text is rendered as safe markdown", () => {
  it("renders formatting and tables", () => {
    const out = html("**Order 8041** is *in transit*.\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    expect(out).toContain("<strong>Order 8041</strong>");
    expect(out).toContain("<table");
  });

  it("drops raw HTML instead of rendering it", () => {
    const out = html('Hi <script>alert(1)</script><img src=x onerror="alert(2)"> <b>bold</b>');
    expect(out).not.toContain("<script");
    expect(out).not.toContain("onerror");
    expect(out).not.toContain("<b>");
  });

  it("blanks javascript: links and hardens every link", () => {
    const out = html("[click](javascript:alert(1)) and [shop](https://example.com/x)");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('href="https://example.com/x"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });

  it("does not load images from other hosts, only same-origin paths", () => {
    const outside = html("![tracker](https://evil.example/pixel.png)");
    expect(outside).not.toContain("<img");
    expect(outside).toContain("[image: tracker]");
    expect(html("![proto](//evil.example/p.png)")).not.toContain("<img");
    expect(html("![logo](/logo.png)")).toContain('<img src="/logo.png" alt="logo"');
  });
});

describe("ids the app issued are data, not words", () => {
  it("marks RR-/CN- ids translate=no in text, not in code", () => {
    const out = html("Return request RR-7K2M9QXA for order 4410; see `RR-7K2M9QXA`. ARR-7K2M9QXAB");
    expect(out).toContain('Return request <span translate="no">RR-7K2M9QXA</span> for order');
    expect(out).toContain("<code>RR-7K2M9QXA</code>");
    expect(out).toContain("ARR-7K2M9QXAB");
    expect(out.match(/translate="no"/g)).toHaveLength(1);
  });

  it("splits plain text around every id", () => {
    expect(splitIssuedIds("Request ID: RR-23456789. Cancellation CN-ABCDEFGH")).toEqual([
      { text: "Request ID: ", id: false },
      { text: "RR-23456789", id: true },
      { text: ". Cancellation ", id: false },
      { text: "CN-ABCDEFGH", id: true },
    ]);
    expect(splitIssuedIds("no ids here")).toEqual([{ text: "no ids here", id: false }]);
  });
});
