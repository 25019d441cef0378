"use client";
/**
 * Run controls: Cancel (while the run can still change), Resume (a waiting run without pending decisions, or a run
 * in review), and Retry (a new run of the same revision with the same input; the page opens it). Results show as
 * toasts; a refusal says why.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Ban, Play, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import type { RunDetail } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { isActiveStatus } from "../ui/format";

/** Props: the run as last read. */
export function RunControls({ detail }: { detail: RunDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const run = detail.run;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ runId: run.id }) });
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: () => toast.success("Cancel requested"), onError: (error) => toast.error(`Could not cancel: ${error.message}`), onSettled: refresh }));
  const resume = useMutation(trpc.runs.resume.mutationOptions({ onSuccess: () => toast.success("Run queued again"), onError: (error) => toast.error(`Could not resume: ${error.message}`), onSettled: refresh }));
  const retry = useMutation(
    trpc.runs.start.mutationOptions({
      onSuccess: (started) => router.push(`/runs/${started.run.id}`),
      onError: (error) => toast.error(`Could not start a new run: ${error.message}`),
    }),
  );
  const active = isActiveStatus(run.status);
  const resumable = (run.status === "waiting" && detail.pendingInterrupts.length === 0) || run.status === "needs_review";
  return (
    <div className="flex shrink-0 items-center gap-1.5" data-testid="run-controls">
      {resumable ? (
        <Button size="sm" icon={Play} data-testid="resume-button" disabled={resume.isPending} onClick={() => resume.mutate({ runId: run.id })}>
          Resume
        </Button>
      ) : null}
      {active ? (
        <Button size="sm" variant="danger" icon={Ban} data-testid="cancel-button" disabled={cancel.isPending || run.cancelRequested} onClick={() => cancel.mutate({ runId: run.id })}>
          {run.cancelRequested ? "Cancelling…" : "Cancel"}
        </Button>
      ) : (
        <Button
          size="sm"
          icon={RotateCcw}
          data-testid="retry-button"
          disabled={retry.isPending}
          title="Start a new run of the same revision with the same input"
          onClick={() => retry.mutate({ workflowId: run.workflowId, revisionId: run.revisionId, input: run.input })}
        >
          {run.status === "succeeded" ? "Run again" : "Retry"}
        </Button>
      )}
    </div>
  );
}
