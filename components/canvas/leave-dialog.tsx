"use client";
/** The question the browser's Back or Forward button gets while the workflow has unsaved changes. */
import { LogOut } from "lucide-react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";

/** Props: open state and the two answers (closing the dialog is Stay). */
export interface LeaveDialogProps {
  open: boolean;
  onStay: () => void;
  onLeave: () => void;
}

/** Stay in the editor (focused first, so Enter or Escape keeps the edits on screen) or leave. */
export function LeaveDialog({ open, onStay, onLeave }: LeaveDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onStay}
      size="sm"
      title="Leave with unsaved changes?"
      description="This workflow has changes that are not saved as a revision. They stay in this browser's draft and come back when you open the workflow again."
      testId="leave-dialog"
      footer={
        <>
          <Button icon={LogOut} onClick={onLeave} data-testid="leave-confirm">
            Leave
          </Button>
          <Button variant="primary" onClick={onStay} data-testid="leave-stay" data-autofocus>
            Stay
          </Button>
        </>
      }
    />
  );
}
