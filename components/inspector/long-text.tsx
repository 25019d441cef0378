"use client";
/**
 * Text of any length that never widens its panel: wrapped anywhere, cut after `limit` characters with a button
 * that shows the rest (in a box that scrolls inside itself). Always React text children, never HTML.
 */
import { useState } from "react";

/** Props: the text, where to cut, a test id, and classes for the text box. */
export interface LongTextProps {
  text: string;
  limit?: number;
  testId?: string;
  className?: string;
  mono?: boolean;
}

function sizeLabel(length: number): string {
  return length >= 10_000 ? `${Math.round(length / 1024)} KB` : `${length.toLocaleString("en-US")} characters`;
}

/** Renders `text`, shortened until expanded. */
export function LongText({ text, limit = 1200, testId, className = "", mono = false }: LongTextProps) {
  const [open, setOpen] = useState(false);
  const long = text.length > limit;
  const shown = long && !open ? `${text.slice(0, limit)}…` : text;
  return (
    <div className="min-w-0">
      <pre
        data-testid={testId}
        data-full={long ? String(open) : "true"}
        className={`min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere] ${mono ? "font-mono text-xs" : "font-sans text-sm"} ${open && long ? "max-h-96 overflow-auto" : ""} ${className}`}
      >
        {shown}
      </pre>
      {long ? (
        <button type="button" data-testid="long-text-toggle" onClick={() => setOpen(!open)} className="mt-1 text-xs font-medium text-accent hover:underline">
          {open ? "Show less" : `Show all (${sizeLabel(text.length)})`}
        </button>
      ) : null}
    </div>
  );
}
