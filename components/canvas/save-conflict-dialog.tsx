"use client";
/** The dialog a stale save opens: someone saved this workflow in another tab or window since it was loaded. */
import { CopyPlus, RefreshCw } from "lucide-react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";

/** Props: open state and the two ways out. */
export interface SaveConflictDialogProps {
  open: boolean;
  busy: boolean;
  onReload: () => void;
  onSaveCopy: () => void;
  onClose: () => void;
}

/** Reload (drop my changes) or save my version as a new workflow. */
export function SaveConflictDialog({ open, busy, onReload, onSaveCopy, onClose }: SaveConflictDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="This workflow changed since you opened it"
      description="Another tab or person saved a newer revision. Your changes were not saved."
      testId="conflict-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Keep editing
          </Button>
          <Button icon={RefreshCw} onClick={onReload} disabled={busy} data-testid="conflict-reload">
            Reload latest (discard mine)
          </Button>
          <Button variant="primary" icon={CopyPlus} onClick={onSaveCopy} disabled={busy} data-testid="conflict-save-copy">
            Save mine as a copy
          </Button>
        </>
      }
    >
      <p className="text-muted">
        Reloading shows the newest revision and drops your unsaved edits. Saving as a copy creates a new workflow with your version and leaves the other one as it is.
      </p>
    </Dialog>
  );
}
