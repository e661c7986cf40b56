import { useTranslations } from "next-intl";
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components, defaultUrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";
import { rehypeIssuedIds } from "@/lib/chat-client/rehype-issued-ids";

/** Same-origin paths only ("/x", not "//host/x"): a picture from elsewhere could track the reader. */
export function isSameOriginPath(src: unknown): src is string {
  return typeof src === "string" && src.startsWith("/") && !src.startsWith("//");
}

const components: Components = {
  // Model text is untrusted: links never get the opener or a referrer, nor pass on reputation.
  a: ({ node: _node, href, children, ...rest }: ComponentProps<"a"> & { node?: unknown }) => (
    <a
      {...rest}
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="font-medium text-brand-700 underline"
    >
      {children}
      <NewTab />
    </a>
  ),
  img: ({ src, alt }) =>
    isSameOriginPath(src) ? (
      // biome-ignore lint/performance/noImgElement: markdown images are rare and same-origin only
      <img src={src} alt={alt ?? ""} className="max-w-full" />
    ) : (
      <BlockedImage alt={alt} />
    ),
  table: ({ children }) => (
    <div className="overflow-x-auto">
      <table className="my-2 border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border border-slate-300 px-2 py-1 text-left">{children}</th>,
  td: ({ children }) => <td className="border border-slate-300 px-2 py-1">{children}</td>,
};

function NewTab() {
  const t = useTranslations("conversation.markdown");
  return <span className="sr-only"> {t("newTab")}</span>;
}

function BlockedImage({ alt }: { alt?: string }) {
  const t = useTranslations("conversation.markdown");
  return (
    <span className="text-slate-600">
      [{t("image", { hasAlt: alt ? "yes" : "no", alt: alt ?? "" })}]
    </span>
  );
}

/**
 * Assistant text as safe markdown: raw HTML is dropped (skipHtml, no rehype-raw), unsafe URL
 * schemes are blanked by the default transform, and images from other hosts are not loaded.
 * Ids the app issued (RR-…) are marked as data (translate="no").
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="space-y-2 wrap-anywhere [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeIssuedIds]}
        skipHtml
        urlTransform={defaultUrlTransform}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
