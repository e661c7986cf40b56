import { NextIntlClientProvider } from "next-intl";
import { type ComponentProps, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/chat/markdown";
import en from "@/messages/en.json";

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
