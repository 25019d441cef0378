"use client";
/** The "Run" form of one workflow: starts a run of its head revision through tRPC `runs.start`, then opens it. */
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc/trpc-context";

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
    <form onSubmit={submit} className="mt-3 flex flex-col gap-2 sm:flex-row" data-testid={`run-form-${workflowId}`}>
      <label className="sr-only" htmlFor={`run-input-${workflowId}`}>
        Input for {workflowName}
      </label>
      <input
        id={`run-input-${workflowId}`}
        data-testid="run-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={defaultInput === "" ? "Input text" : defaultInput}
        className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm outline-none focus:border-sky-500 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <button
        type="submit"
        data-testid="run-button"
        disabled={start.isPending}
        className="rounded-md bg-zinc-900 px-4 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        {start.isPending ? "Starting…" : "Run"}
      </button>
      {start.error ? (
        <p role="alert" data-testid="run-error" className="text-sm text-red-700 dark:text-red-400">
          {start.error.message}
        </p>
      ) : null}
    </form>
  );
}
