"use client";
/**
 * Revision history: every saved revision (newest first) with its message and time; open one read-only, restore
 * it as a new revision, or tick two and compare them on the canvas.
 */
import { useQuery } from "@tanstack/react-query";
import { Eye, GitCompare, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { EmptyState } from "../ui/empty-state";
import { History } from "lucide-react";
import type { RevisionView } from "./use-workflow-save";

/** Props: open state, the workflow, the current head, and the three actions. */
export interface HistoryDialogProps {
  open: boolean;
  onClose: () => void;
  workflowId: string;
  headRevisionId: string | null;
  onOpen: (revision: RevisionView) => void;
  onRestore: (revision: RevisionView) => void;
  onCompare: (older: RevisionView, newer: RevisionView) => void;
}

/** The dialog. */
export function HistoryDialog({ open, onClose, workflowId, headRevisionId, onOpen, onRestore, onCompare }: HistoryDialogProps) {
  const trpc = useTRPC();
  const revisions = useQuery({ ...trpc.workflows.listRevisions.queryOptions({ workflowId, limit: 200 }), enabled: open });
  const [picked, setPicked] = useState<string[]>([]);
  const list = revisions.data ?? [];
  const chosen = list.filter((revision) => picked.includes(revision.id)).sort((a, b) => a.number - b.number);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Revision history"
      description="Every save is an immutable revision. Open one to look at it, restore it as a new revision, or compare two."
      size="lg"
      testId="history-dialog"
      footer={
        <>
          <span className="mr-auto self-center text-xs text-muted">{picked.length === 2 ? "Two revisions picked." : "Tick two revisions to compare them."}</span>
          <Button
            variant="primary"
            icon={GitCompare}
            disabled={chosen.length !== 2}
            data-testid="history-compare"
            onClick={() => {
              const [older, newer] = chosen;
              if (older !== undefined && newer !== undefined) onCompare(older, newer);
            }}
          >
            Compare
          </Button>
        </>
      }
    >
      {revisions.isPending ? <p className="text-muted">Loading revisions…</p> : null}
      {revisions.error ? <p className="text-status-failed">Could not load the history: {revisions.error.message}</p> : null}
      {revisions.isSuccess && list.length === 0 ? (
        <EmptyState icon={History} title="No revisions yet">
          Save the workflow to create its first revision.
        </EmptyState>
      ) : null}
      <ul className="divide-y divide-line">
        {list.map((revision) => {
          const checked = picked.includes(revision.id);
          return (
            <li key={revision.id} className="flex items-center gap-3 py-2" data-testid="history-row" data-revision-number={revision.number}>
              <input
                type="checkbox"
                aria-label={`Pick revision ${revision.number} to compare`}
                className="size-4 accent-[var(--rath-accent)]"
                checked={checked}
                data-testid="history-pick"
                onChange={(event) => setPicked((current) => (event.target.checked ? [...current.filter((id) => id !== revision.id), revision.id].slice(-2) : current.filter((id) => id !== revision.id)))}
              />
              <div className="min-w-0 flex-1">
                <div className="flex items-center gap-2 text-sm">
                  <span className="font-medium text-ink tabular">Revision {revision.number}</span>
                  {revision.id === headRevisionId ? <span className="rounded-full bg-accent-soft px-1.5 text-[11px] font-medium text-accent">latest</span> : null}
                  <span className="font-mono text-[11px] text-faint" title={revision.specSha256}>
                    {revision.specSha256.slice(0, 8)}
                  </span>
                </div>
                <div className="truncate text-xs text-muted">
                  <time dateTime={revision.createdAt}>{new Date(revision.createdAt).toLocaleString()}</time>
                  {revision.message ? ` · ${revision.message}` : ""}
                </div>
              </div>
              <Button size="sm" variant="ghost" icon={Eye} onClick={() => onOpen(revision)} data-testid="history-open">
                Open
              </Button>
              <Button size="sm" variant="ghost" icon={RotateCcw} onClick={() => onRestore(revision)} disabled={revision.id === headRevisionId} data-testid="history-restore">
                Restore
              </Button>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
