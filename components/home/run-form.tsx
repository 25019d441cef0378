"use client";
/** The "Run" form of one workflow: starts a run of its head revision through tRPC `runs.start`, then opens it. */
import { useMutation } from "@tanstack/react-query";
import { Play } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";

/** Props: the workflow to run and the Input node's default text (shown as the placeholder). */
export interface RunFormProps {
  workflowId: string;
  workflowName: string;
  defaultInput: string;
}

/** An input and a button; an empty input runs with the Input node's default text. */
export function RunForm({ workflowId, workflowName, defaultInput }: RunFormProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const [text, setText] = useState("");
  const start = useMutation(
    trpc.runs.start.mutationOptions({
      onSuccess: (started) => router.push(`/runs/${started.run.id}`),
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    start.mutate({ workflowId, input: text.trim() === "" ? null : text });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-1.5" data-testid={`run-form-${workflowId}`}>
      <div className="flex min-w-0 gap-2">
        <label className="sr-only" htmlFor={`run-input-${workflowId}`}>
          Input for {workflowName}
        </label>
        <input
          id={`run-input-${workflowId}`}
          data-testid="run-input"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={defaultInput === "" ? "Input text" : defaultInput}
          className={`${inputClasses()} flex-1`}
        />
        <Button type="submit" variant="primary" icon={Play} data-testid="run-button" disabled={start.isPending}>
          {start.isPending ? "Starting…" : "Run"}
        </Button>
      </div>
      {start.error ? (
        <p role="alert" data-testid="run-error" className="text-xs text-status-failed">
          {start.error.message}
        </p>
      ) : null}
    </form>
  );
}
