"use client";
/**
 * Model output as markdown, rendered safely: raw HTML is never interpreted (react-markdown escapes it; no
 * rehype-raw), images are not loaded unless the person asks (a placeholder names the host), links open in a new
 * tab with rel="noopener noreferrer" and anything but http(s)/mailto (javascript:, data:, …) is not a link at all.
 */
import { ImageOff } from "lucide-react";
import { memo, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

/** Whether a URL may be a link target or an image source. */
export function safeUrl(url: string, image = false): string | null {
  const trimmed = url.trim();
  if (trimmed.startsWith("#")) return image ? null : trimmed;
  try {
    const parsed = new URL(trimmed);
    const allowed = image ? ["http:", "https:"] : ["http:", "https:", "mailto:"];
    return allowed.includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

function LazyImage({ src, alt }: { src: string | null; alt: string }) {
  const [load, setLoad] = useState(false);
  if (src === null) {
    return (
      <span className="inline-flex items-center gap-1 rounded border border-line px-1 text-xs text-muted">
        <ImageOff className="size-3" aria-hidden="true" />
        image blocked{alt ? `: ${alt}` : ""}
      </span>
    );
  }
  // A person asked for this one image; plain <img> on purpose (no optimiser for arbitrary hosts).
  if (load) return <img src={src} alt={alt} referrerPolicy="no-referrer" className="max-h-80 max-w-full rounded border border-line" />;
  return (
    <button type="button" data-testid="markdown-image-placeholder" onClick={() => setLoad(true)} className="inline-flex max-w-full items-center gap-1 rounded border border-line px-1.5 py-0.5 text-xs text-muted hover:bg-raised">
      <ImageOff className="size-3 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">
        Load image{alt ? ` “${alt}”` : ""} from {new URL(src).host}
      </span>
    </button>
  );
}

const COMPONENTS: Components = {
  a: ({ href, children }) => {
    const target = typeof href === "string" ? safeUrl(href) : null;
    if (target === null) return <span data-testid="markdown-neutralised-link" className="underline decoration-dotted">{children}</span>;
    return (
      <a href={target} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline [overflow-wrap:anywhere]">
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => <LazyImage src={typeof src === "string" ? safeUrl(src, true) : null} alt={typeof alt === "string" ? alt : ""} />,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-md bg-sunken p-2 font-mono text-xs">{children}</pre>,
  code: ({ children, className }) => <code className={`rounded bg-sunken px-1 font-mono text-[0.85em] [overflow-wrap:anywhere] ${className ?? ""}`}>{children}</code>,
  table: ({ children }) => (
    <div className="my-2 max-w-full overflow-x-auto">
      <table className="text-xs [&_td]:border [&_td]:border-line [&_td]:px-1.5 [&_th]:border [&_th]:border-line [&_th]:px-1.5">{children}</table>
    </div>
  ),
};

const REMARK_PLUGINS = [remarkGfm];

/** Renders markdown text inertly (memoised: the same text is not parsed again when its parent renders). */
export const SafeMarkdown = memo(function SafeMarkdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div
      data-testid={testId}
      className="min-w-0 text-sm leading-relaxed [overflow-wrap:anywhere] [&_blockquote]:border-l-2 [&_blockquote]:border-line [&_blockquote]:pl-2 [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-4 [&_ol]:list-decimal [&_p]:my-1 [&_ul]:list-disc"
    >
      <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
