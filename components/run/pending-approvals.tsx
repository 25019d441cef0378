"use client";
/** The run's pending approvals: the prompt and the text under review, with Approve and Reject (tRPC decideInterrupt). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PendingInterrupt } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";

function requestField(request: unknown, key: string): string | null {
  if (request === null || typeof request !== "object") return null;
  const value = (request as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

/** Renders one card per pending interrupt; a decision re-reads the run. */
export function PendingApprovals({ interrupts }: { interrupts: PendingInterrupt[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const decide = useMutation(
    trpc.runs.decideInterrupt.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey() }),
    }),
  );
  if (interrupts.length === 0) return null;
  return (
    <section className="rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950/40" data-testid="pending-approvals">
      <h2 className="text-base font-semibold">Waiting for your decision</h2>
      <ul className="mt-2 space-y-3">
        {interrupts.map((interrupt) => {
          const prompt = requestField(interrupt.request, "prompt") ?? "Approve this step?";
          const text = requestField(interrupt.request, "text");
          return (
            <li key={interrupt.id} data-testid="pending-approval" data-interrupt-id={interrupt.id}>
              <p className="text-sm font-medium">
                {prompt} <span className="font-normal text-zinc-500">(node {interrupt.nodeId})</span>
              </p>
              {text === null ? null : (
                <pre data-testid="approval-text" className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded border border-amber-200 bg-white p-2 font-sans text-sm dark:border-amber-800 dark:bg-zinc-900">
                  {text}
                </pre>
              )}
              <div className="mt-2 flex gap-2">
                <button
                  type="button"
                  data-testid="approve-button"
                  disabled={decide.isPending}
                  onClick={() => decide.mutate({ interruptId: interrupt.id, decision: "approve" })}
                  className="rounded-md bg-emerald-700 px-3 py-1 text-sm font-medium text-white hover:bg-emerald-600 disabled:opacity-50"
                >
                  Approve
                </button>
                <button
                  type="button"
                  data-testid="reject-button"
                  disabled={decide.isPending}
                  onClick={() => decide.mutate({ interruptId: interrupt.id, decision: "reject" })}
                  className="rounded-md border border-red-300 px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
                >
                  Reject
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {decide.error ? (
        <p role="alert" data-testid="decision-error" className="mt-2 text-sm text-red-700">
          {decide.error.message}
        </p>
      ) : null}
    </section>
  );
}
