"use client";
/**
 * The Run dialog, shaped by the workflow's Input node: a text box prefilled with its default text (empty runs
 * with the default). It runs the saved revision; with unsaved changes it offers "Save and run".
 */
import { LogIn, Play, Save } from "lucide-react";
import { useId, useState } from "react";
import type { WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, inputClasses } from "../ui/field";
import { nodeDisplayName } from "./canvas-document";

/** Props: open state, the Input node, save state and the start handler. */
export interface RunDialogProps {
  open: boolean;
  onClose: () => void;
  inputNode: WorkflowNode | null;
  revisionNumber: number | null;
  dirty: boolean;
  problemCount: number;
  busy: boolean;
  onStart: (input: string | null, saveFirst: boolean) => void;
}

/** The dialog. */
export function RunDialog({ open, onClose, inputNode, revisionNumber, dirty, problemCount, busy, onStart }: RunDialogProps) {
  const id = useId();
  const defaultText = inputNode?.type === "input" ? (inputNode.config.defaultText ?? "") : "";
  const [text, setText] = useState<string | null>(null);
  const value = text ?? defaultText;
  const blocked = inputNode === null || problemCount > 0 || (revisionNumber === null && !dirty);
  const submit = (saveFirst: boolean) => onStart(value.trim() === "" ? null : value, saveFirst);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Run this workflow"
      description={revisionNumber === null ? "Nothing is saved yet: the run uses what you save now." : dirty ? `Revision ${revisionNumber} is saved; your canvas has unsaved changes.` : `Runs revision ${revisionNumber}.`}
      testId="run-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          {dirty ? (
            <>
              {revisionNumber !== null ? (
                <Button icon={Play} disabled={busy || inputNode === null} onClick={() => submit(false)} data-testid="run-saved">
                  Run revision {revisionNumber}
                </Button>
              ) : null}
              <Button variant="primary" icon={Save} disabled={busy || blocked} onClick={() => submit(true)} data-testid="run-start">
                Save and run
              </Button>
            </>
          ) : (
            <Button variant="primary" icon={Play} disabled={busy || blocked} onClick={() => submit(false)} data-testid="run-start">
              Run
            </Button>
          )}
        </>
      }
    >
      {inputNode === null ? (
        <p className="text-status-failed">This workflow has no Input node: add one (it is where the run’s text enters) and wire it to the first step.</p>
      ) : (
        <div className="space-y-3">
          <p className="flex items-center gap-1.5 text-xs text-muted">
            <LogIn className="size-3.5" aria-hidden="true" /> Enters at <span className="font-medium text-ink">{nodeDisplayName(inputNode)}</span> as the user message.
          </p>
          <Field id={id} label="Input" hint={defaultText === "" ? "Leave empty to start with an empty message." : "Leave as is to use the Input node's default text."}>
            <textarea id={id} rows={5} autoFocus data-autofocus className={inputClasses()} value={value} onChange={(event) => setText(event.target.value)} data-testid="run-input-text" placeholder="What should the workflow work on?" />
          </Field>
          {problemCount > 0 ? <p className="text-xs text-status-failed">Fix the {problemCount} problem(s) listed under the canvas first.</p> : null}
        </div>
      )}
    </Dialog>
  );
}
