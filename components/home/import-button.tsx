"use client";
/**
 * "Import": picks a JSON file, reads and validates it in the browser (import-spec.ts, the validator the server uses
 * too) and saves it as a new workflow only when it has no problem; otherwise a dialog lists every problem with its
 * location and nothing is saved.
 */
import { useMutation } from "@tanstack/react-query";
import { FileWarning, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState, type ChangeEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { readImportFile, type ImportProblem } from "./import-spec";

/** The button (with its hidden file input) and the problems dialog; `onCreated` gets the new workflow's id. */
export function ImportButton({ onCreated }: { onCreated: (workflowId: string) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [failure, setFailure] = useState<{ fileName: string; problems: ImportProblem[] } | null>(null);
  const create = useMutation(trpc.workflows.create.mutationOptions());

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    const result = readImportFile(await file.text());
    if (!result.ok) {
      setFailure({ fileName: file.name, problems: result.problems });
      return;
    }
    try {
      const created = await create.mutateAsync({
        name: result.name,
        description: result.description,
        spec: result.spec,
        ...(result.layout === null ? {} : { layout: result.layout }),
      });
      toast.success(`Imported “${created.workflow.name}”`);
      onCreated(created.workflow.id);
      router.refresh();
    } catch (error) {
      setFailure({ fileName: file.name, problems: [{ where: "server", message: error instanceof Error ? error.message : String(error) }] });
    }
  }

  return (
    <>
      <input ref={input} type="file" accept=".json,application/json" className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="import-file" onChange={(event) => void onFile(event)} />
      <Button icon={Upload} onClick={() => input.current?.click()} disabled={create.isPending} data-testid="import-button">
        Import
      </Button>
      <Dialog
        open={failure !== null}
        onClose={() => setFailure(null)}
        title="Nothing was imported"
        description={failure ? `${failure.fileName} has ${failure.problems.length} problem${failure.problems.length === 1 ? "" : "s"}. Fix the file and import it again.` : undefined}
        testId="import-problems"
        footer={
          <Button variant="primary" onClick={() => setFailure(null)}>
            Close
          </Button>
        }
      >
        <ul className="space-y-2">
          {(failure?.problems ?? []).map((problem, index) => (
            <li key={index} data-testid="import-problem" className="flex gap-2 rounded-md border border-line bg-sunken p-2">
              <FileWarning className="mt-0.5 size-4 shrink-0 text-status-failed" aria-hidden="true" />
              <div className="min-w-0">
                <p className="font-mono text-xs font-medium text-ink" data-testid="import-problem-where">
                  {problem.where}
                </p>
                <p className="text-sm text-muted">{problem.message}</p>
              </div>
            </li>
          ))}
        </ul>
      </Dialog>
    </>
  );
}
