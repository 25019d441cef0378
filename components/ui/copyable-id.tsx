"use client";
/** An id shown short (`run_…q3y8aw`, a UUID's first 8 characters), full on hover, copied on click. */
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { shortId } from "./format";

/** Props: the full id and an optional test id. */
export function CopyableId({ id, testId, className = "" }: { id: string; testId?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(id).then(
      () => {
        setCopied(true);
        window.setTimeout(() => setCopied(false), 1200);
      },
      () => setCopied(false),
    );
  };
  return (
    <button
      type="button"
      data-testid={testId}
      data-id={id}
      title={`${id} — click to copy`}
      onClick={copy}
      className={`group inline-flex max-w-full items-center gap-1 rounded px-1 font-mono text-xs text-muted tabular hover:bg-raised hover:text-ink ${className}`}
    >
      {/* The name starts with what is shown (WCAG 2.5.3), then says what the button does. */}
      <span className="truncate">{shortId(id)}</span>
      <span className="sr-only">, copy the full id {id}</span>
      {copied ? <Check className="size-3 shrink-0" aria-hidden="true" /> : <Copy className="size-3 shrink-0 opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100" aria-hidden="true" />}
    </button>
  );
}
