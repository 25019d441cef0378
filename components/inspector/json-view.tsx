"use client";
/**
 * JSON pretty-printed as a collapsible tree (objects and arrays fold; long strings wrap and cut; big arrays show
 * their first 100 entries first), with "Raw" to see the formatted text. Values are React text, never HTML.
 */
import { ChevronRight } from "lucide-react";
import { useState } from "react";
import { LongText } from "./long-text";

const PAGE = 100;

function Scalar({ value }: { value: unknown }) {
  if (typeof value === "string") {
    return <span className="text-status-succeeded [overflow-wrap:anywhere]">{value.length > 400 ? <LongText text={JSON.stringify(value)} limit={400} mono /> : JSON.stringify(value)}</span>;
  }
  if (typeof value === "number" || typeof value === "boolean") return <span className="text-accent tabular">{String(value)}</span>;
  return <span className="text-faint">null</span>;
}

function Entries({ value, depth }: { value: object; depth: number }) {
  const entries: Array<[string, unknown]> = Array.isArray(value) ? (value as unknown[]).map((entry, index) => [String(index), entry]) : Object.entries(value);
  const [shown, setShown] = useState(PAGE);
  return (
    <ul className="ml-3 border-l border-line pl-2">
      {entries.slice(0, shown).map(([key, entry]) => (
        <li key={key} className="min-w-0">
          <Node name={key} value={entry} depth={depth + 1} />
        </li>
      ))}
      {entries.length > shown ? (
        <li>
          <button type="button" onClick={() => setShown(shown + PAGE * 10)} className="text-xs text-accent hover:underline">
            {entries.length - shown} more…
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function Node({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const composite = typeof value === "object" && value !== null;
  const [open, setOpen] = useState(depth < 2);
  const label = name === null ? null : <span className="text-muted">{name}: </span>;
  if (!composite) {
    return (
      <div className="min-w-0 font-mono text-xs [overflow-wrap:anywhere]">
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const size = Array.isArray(value) ? `[${value.length}]` : `{${Object.keys(value).length}}`;
  return (
    <div className="min-w-0 font-mono text-xs">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="inline-flex max-w-full items-center gap-0.5 rounded hover:bg-raised">
        <ChevronRight className={`size-3 shrink-0 transition-transform ${open ? "rotate-90" : ""}`} aria-hidden="true" />
        <span className="min-w-0 truncate">
          {label}
          <span className="text-faint">{size}</span>
        </span>
      </button>
      {open ? <Entries value={value} depth={depth} /> : null}
    </div>
  );
}

/** Parses JSON text; null when it is not JSON. */
export function parseJson(text: string): { value: unknown } | null {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return null;
  try {
    return { value: JSON.parse(trimmed) as unknown };
  } catch {
    return null;
  }
}

/** Props: the value, and a test id on the tree. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const [raw, setRaw] = useState(false);
  return (
    <div data-testid={testId} className="min-w-0 rounded-md border border-line bg-sunken p-2">
      <div className="mb-1 flex justify-end">
        <button type="button" onClick={() => setRaw(!raw)} className="text-[11px] font-medium text-muted hover:text-ink" aria-pressed={raw}>
          {raw ? "Tree" : "Raw"}
        </button>
      </div>
      {raw ? <LongText text={JSON.stringify(value, null, 2)} limit={20_000} mono testId={testId === undefined ? undefined : `${testId}-raw`} /> : <Node name={null} value={value} depth={0} />}
    </div>
  );
}
