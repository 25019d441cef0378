"use client";
/**
 * One workflow on the home page: its name (links to the editor at /workflows/<id>; renamed inline), description,
 * node types, revision count and last run; a Run form; and Rename, Duplicate and Delete (with a confirm dialog).
 */
import { useMutation } from "@tanstack/react-query";
import { Copy, Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { StatusBadge } from "../ui/status-badge";
import type { WorkflowSummary } from "./home-data";
import { NodeTypeChips } from "./node-type-chips";
import { RunForm } from "./run-form";

function RenameForm({ workflow, onDone }: { workflow: WorkflowSummary; onDone: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState(workflow.name);
  const rename = useMutation(
    trpc.workflows.update.mutationOptions({
      onSuccess: () => {
        onDone();
        router.refresh();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === "" || trimmed === workflow.name) return onDone();
    rename.mutate({ workflowId: workflow.id, name: trimmed });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <form onSubmit={submit} className="flex min-w-0 flex-1 flex-col gap-1" data-testid="rename-form">
      <label htmlFor={`rename-${workflow.id}`} className="sr-only">
        New name for {workflow.name}
      </label>
      <input
        id={`rename-${workflow.id}`}
        data-testid="rename-input"
        autoFocus
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!rename.isPending) onDone();
        }}
        aria-invalid={name.trim() === ""}
        className={`${inputClasses(name.trim() === "")} font-semibold`}
      />
      <p className="text-[11px] text-faint">Enter to save · Esc to cancel</p>
      {rename.error ? (
        <p role="alert" className="text-xs text-status-failed">
          {rename.error.message}
        </p>
      ) : null}
    </form>
  );
}

/** The card. */
export function WorkflowCard({ workflow }: { workflow: WorkflowSummary }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const duplicate = useMutation(
    trpc.workflows.duplicate.mutationOptions({
      onSuccess: (created) => {
        toast.success(`Created “${created.workflow.name}”`);
        router.refresh();
      },
      onError: (error) => toast.error(`Could not duplicate: ${error.message}`),
    }),
  );
  const remove = useMutation(
    trpc.workflows.delete.mutationOptions({
      onSuccess: () => {
        setConfirmDelete(false);
        toast.success(`Deleted “${workflow.name}”`);
        router.refresh();
      },
    }),
  );

  return (
    <li
      data-testid="workflow-card"
      data-workflow-id={workflow.id}
      data-workflow-name={workflow.name}
      className="flex min-w-0 flex-col rounded-lg border border-line bg-surface p-4 transition-colors hover:border-line-strong"
    >
      <div className="flex min-w-0 items-start gap-2">
        {renaming ? (
          <RenameForm workflow={workflow} onDone={() => setRenaming(false)} />
        ) : (
          <h3 className="min-w-0 flex-1 text-[15px] leading-6 font-semibold">
            <Link href={`/workflows/${workflow.id}`} data-testid="workflow-name" className="line-clamp-2 break-words hover:text-accent hover:underline">
              {workflow.name}
            </Link>
          </h3>
        )}
        <div className="-mr-1 -mt-0.5 flex shrink-0 items-center">
          <Button size="sm" variant="ghost" icon={Pencil} aria-label={`Rename ${workflow.name}`} title="Rename" onClick={() => setRenaming(true)} data-testid="workflow-rename" />
          <Button
            size="sm"
            variant="ghost"
            icon={Copy}
            aria-label={`Duplicate ${workflow.name}`}
            title="Duplicate"
            disabled={duplicate.isPending}
            onClick={() => duplicate.mutate({ workflowId: workflow.id })}
            data-testid="workflow-duplicate"
          />
          <Button
            size="sm"
            variant="ghost"
            icon={Trash2}
            aria-label={`Delete ${workflow.name}`}
            title="Delete"
            onClick={() => setConfirmDelete(true)}
            data-testid="workflow-delete"
            className="hover:text-status-failed"
          />
        </div>
      </div>
      {workflow.description !== "" ? <p className="mt-1 line-clamp-2 text-sm text-muted">{workflow.description}</p> : null}
      <div className="mt-3">
        <NodeTypeChips types={workflow.nodeTypes} />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <span data-testid="workflow-revisions">
          {workflow.revisionCount} {workflow.revisionCount === 1 ? "revision" : "revisions"}
        </span>
        <span aria-hidden="true">·</span>
        <span className="flex items-center gap-1.5">
          Last run
          {workflow.lastRunStatus !== null && workflow.lastRunId !== null ? (
            <Link href={`/runs/${workflow.lastRunId}`} className="rounded hover:underline" aria-label={`Last run: ${workflow.lastRunStatus.replace("_", " ")}`}>
              <StatusBadge status={workflow.lastRunStatus} testId="workflow-last-run-status" />
            </Link>
          ) : (
            <span data-testid="workflow-last-run-status" className="text-faint">
              never
            </span>
          )}
        </span>
      </div>
      <div className="mt-auto pt-3">
        {workflow.revisionCount > 0 ? (
          <RunForm workflowId={workflow.id} workflowName={workflow.name} defaultInput={workflow.defaultInput} />
        ) : (
          <p className="text-xs text-faint">Open it in the editor and save a first revision to run it.</p>
        )}
      </div>
      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete “${workflow.name}”?`}
        description="The workflow leaves this list. Its revisions and past runs stay readable from their links."
        size="sm"
        testId="delete-dialog"
        footer={
          <>
            <Button onClick={() => setConfirmDelete(false)} data-testid="delete-cancel">
              Cancel
            </Button>
            <Button variant="danger" icon={Trash2} disabled={remove.isPending} onClick={() => remove.mutate({ workflowId: workflow.id })} data-testid="delete-confirm">
              {remove.isPending ? "Deleting…" : "Delete workflow"}
            </Button>
          </>
        }
      >
        {remove.error ? (
          <p role="alert" className="text-status-failed">
            {remove.error.message}
          </p>
        ) : null}
      </Dialog>
    </li>
  );
}
