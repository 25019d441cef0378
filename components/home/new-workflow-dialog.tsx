"use client";
/** "New blank workflow": asks for a name and the provider it runs on, then saves an Input → Output workflow (`workflows.create`). */
import { useMutation } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { blankSpec, DEMO_RUNS_ON, type RunsOnChoice } from "./blank-spec";
import { RunsOnPicker } from "./runs-on-picker";

/** The dialog; `onCreated` gets the new workflow's id. */
export function NewWorkflowDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (workflowId: string) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState("Untitled workflow");
  const [runsOn, setRunsOn] = useState<RunsOnChoice>(DEMO_RUNS_ON);
  const create = useMutation(
    trpc.workflows.create.mutationOptions({
      onSuccess: (created) => {
        toast.success(`Created “${created.workflow.name}”`);
        onCreated(created.workflow.id);
        onClose();
        router.refresh();
      },
    }),
  );
  const error = name.trim() === "" ? "A name is required." : (create.error?.message ?? null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "") return;
    create.mutate({ name: name.trim(), spec: blankSpec(name.trim(), runsOn) });
  };
  return (
    <Dialog open={open} onClose={onClose} title="New blank workflow" size="sm" testId="new-workflow-dialog">
      <form id="new-workflow-form" onSubmit={submit} className="flex flex-col gap-3">
        <Field id="new-workflow-name" label="Name" hint="It starts as Input → Output; add agents and tools in the editor." error={error}>
          <input
            id="new-workflow-name"
            data-testid="new-workflow-name"
            autoFocus
            data-autofocus
            maxLength={200}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={fieldDescribedBy("new-workflow-name", true, error !== null)}
            className={inputClasses(error !== null)}
          />
        </Field>
        <RunsOnPicker id="new-workflow-runs-on" value={runsOn} onChange={setRunsOn} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" icon={Plus} disabled={create.isPending || name.trim() === ""} data-testid="new-workflow-create">
            {create.isPending ? "Creating…" : "Create"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
