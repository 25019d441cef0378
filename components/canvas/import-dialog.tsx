"use client";
/**
 * What an import found: a file that is not a workflow (the reason, nothing changes), or a workflow with problems
 * (every problem, then load it anyway to fix it on the canvas, or cancel). Nothing is saved until Save.
 */
import { FileWarning, Upload } from "lucide-react";
import type { Problem } from "../../runtime/workflow-spec/problems";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";

/** The import outcome waiting for the user. */
export type PendingImport = { kind: "error"; fileName: string; message: string } | { kind: "problems"; fileName: string; problems: readonly Problem[]; load: () => void };

/** The dialog. */
export function ImportDialog({ pending, onClose }: { pending: PendingImport | null; onClose: () => void }) {
  return (
    <Dialog
      open={pending !== null}
      onClose={onClose}
      title={pending?.kind === "error" ? "This file cannot be imported" : "The imported workflow has problems"}
      description={pending?.fileName}
      testId="import-dialog"
      footer={
        pending?.kind === "problems" ? (
          <>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button
              variant="primary"
              icon={Upload}
              onClick={() => {
                pending.load();
                onClose();
              }}
              data-testid="import-anyway"
            >
              Load it and fix it on the canvas
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>Close</Button>
        )
      }
    >
      {pending?.kind === "error" ? (
        <p role="alert" className="flex items-start gap-2 text-status-failed" data-testid="import-error">
          <FileWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{pending.message} Nothing was changed.</span>
        </p>
      ) : null}
      {pending?.kind === "problems" ? (
        <>
          <p className="mb-2 text-muted">Nothing is saved until you press Save.</p>
          <ul className="space-y-1 text-xs" data-testid="import-problems">
            {pending.problems.map((problem, index) => (
              <li key={index} className="text-status-failed">
                {problem.message}
                {problem.nodeId ? <span className="ml-1 font-mono text-faint">({problem.nodeId})</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Dialog>
  );
}
