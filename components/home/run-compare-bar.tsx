"use client";
/**
 * The /runs compare bar: the runs ticked in the list (kept across pages and filters, each removable), why they cannot
 * be compared yet (said as a live status, and tied to the Compare action), and Compare, a link to the compare page.
 */
import { ArrowRightLeft, X } from "lucide-react";
import Link from "next/link";
import { useId } from "react";
import { Button, buttonClasses } from "../ui/button";
import { shortId } from "../ui/format";
import { comparePickVerdict, type PickedRun } from "./run-compare-pick";

/** Props: the picked runs (in the order picked), removing one, clearing all. */
export interface RunCompareBarProps {
  picked: readonly PickedRun[];
  onRemove: (runId: string) => void;
  onClear: () => void;
}

/** The bar. */
export function RunCompareBar({ picked, onRemove, onClear }: RunCompareBarProps) {
  const verdict = comparePickVerdict(picked);
  const messageId = useId();
  const message = verdict.problem ?? (verdict.notes.length > 0 ? verdict.notes.join(" ") : "Ready to compare: the first run picked is A.");
  return (
    <section aria-label="Compare two runs" data-testid="run-compare-bar" className="mb-3 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2">
      <ArrowRightLeft className="size-4 shrink-0 text-muted" aria-hidden="true" />
      {picked.length > 0 ? (
        <ul aria-label="Runs to compare" className="flex min-w-0 flex-wrap items-center gap-1.5">
          {picked.map((run, index) => (
            <li key={run.id} data-testid="run-compare-chip" data-run-id={run.id} className="flex min-w-0 items-center gap-1 rounded-md border border-line bg-raised py-0.5 pr-0.5 pl-2 text-xs">
              <span className="font-semibold text-muted">{index === 0 ? "A" : index === 1 ? "B" : index + 1}</span>
              <span className="max-w-40 truncate text-ink" title={run.workflowName}>
                {run.workflowName}
              </span>
              <span className="font-mono text-faint">{shortId(run.id)}</span>
              <Button size="sm" variant="ghost" icon={X} className="!size-5" aria-label={`Remove run ${shortId(run.id)} from the comparison`} onClick={() => onRemove(run.id)} />
            </li>
          ))}
        </ul>
      ) : null}
      <p id={messageId} role="status" data-testid="run-compare-message" data-ready={verdict.href !== null} className="min-w-0 flex-1 basis-48 text-xs text-muted [overflow-wrap:anywhere]">
        {message}
      </p>
      <div className="flex shrink-0 items-center gap-1.5">
        {picked.length > 0 ? (
          <Button size="sm" variant="ghost" onClick={onClear} data-testid="run-compare-clear">
            Clear
          </Button>
        ) : null}
        {verdict.href === null ? (
          // Focusable while unavailable, so the reason is read with it (a disabled button would be skipped).
          <Button size="sm" variant="primary" icon={ArrowRightLeft} aria-disabled="true" aria-describedby={messageId} className="cursor-not-allowed opacity-50" data-testid="run-compare">
            Compare
          </Button>
        ) : (
          <Link href={verdict.href} className={buttonClasses("primary", "sm")} aria-describedby={messageId} data-testid="run-compare">
            <ArrowRightLeft className="size-3.5" aria-hidden="true" />
            Compare
          </Link>
        )}
      </div>
    </section>
  );
}
