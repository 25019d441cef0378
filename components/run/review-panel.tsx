"use client";
/**
 * The `needs_review` flow: a crash left tool calls with side effects ambiguous (did they run?). For each one the
 * person says what happened — it succeeded (with the result content to replay) or failed (with a message) — and
 * requeues the run; the step runs again and those calls are replayed, not repeated. Or the run is failed.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { JsonView } from "../inspector/json-view";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";

interface Outcome {
  status: "succeeded" | "failed";
  content: string;
}

/** Props: the run in review. */
export function ReviewPanel({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const effects = useQuery(trpc.runs.effects.queryOptions({ runId }));
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const id = useId();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ runId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.runs.effects.queryKey({ runId }) });
  };
  const review = useMutation(trpc.runs.review.mutationOptions({ onSuccess: (run) => toast.success(`Run ${run.status === "queued" ? "requeued" : run.status}`), onSettled: refresh }));
  const ambiguous = (effects.data ?? []).filter((effect) => effect.status === "ambiguous");
  const decided = ambiguous.every((effect) => outcomes[effect.id] !== undefined);
  const set = (effectId: string, change: Partial<Outcome>) =>
    setOutcomes((current) => ({ ...current, [effectId]: { status: current[effectId]?.status ?? "succeeded", content: current[effectId]?.content ?? "", ...change } }));

  return (
    <section data-testid="review-panel" aria-label="Review ambiguous tool calls" className="min-w-0 rounded-md border border-line bg-surface p-3">
      <h2 className="flex items-center gap-1.5 text-sm font-semibold text-status-review">
        <ShieldAlert className="size-4" aria-hidden="true" /> Needs review
      </h2>
      <p className="mt-1 text-xs text-muted">
        The worker stopped while these calls with side effects were in flight, so nobody knows whether they ran. Say what happened to each; requeuing replays your answer instead of calling the tool again.
      </p>
      {effects.isError ? <p role="alert" className="mt-2 text-sm text-status-failed">{effects.error.message}</p> : null}
      <ul className="mt-2 space-y-2">
        {ambiguous.length === 0 && effects.isSuccess ? <li className="text-xs text-muted">No ambiguous calls are left: resume the run.</li> : null}
        {ambiguous.map((effect) => {
          const outcome = outcomes[effect.id];
          return (
            <li key={effect.id} data-testid="review-effect" data-effect-id={effect.id} className="min-w-0 rounded border border-line p-2">
              <p className="text-xs font-medium">
                <span className="font-mono">{effect.tool}</span> <span className="text-muted">· {effect.idempotent ? "idempotent" : "not idempotent"} · dispatched {effect.dispatchedAt ?? "?"}</span>
              </p>
              <div className="mt-1">
                <JsonView value={effect.args} />
              </div>
              <fieldset className="mt-2 flex flex-wrap gap-3 text-xs">
                <legend className="sr-only">What happened to this call</legend>
                {(["succeeded", "failed"] as const).map((status) => (
                  <label key={status} className="inline-flex items-center gap-1">
                    <input type="radio" name={`${id}-${effect.id}`} data-testid={`review-${status}`} checked={outcome?.status === status} onChange={() => set(effect.id, { status })} />
                    {status === "succeeded" ? "It ran (give its result)" : "It did not run / failed"}
                  </label>
                ))}
              </fieldset>
              {outcome !== undefined ? (
                <textarea
                  data-testid="review-content"
                  aria-label={outcome.status === "succeeded" ? "Result content to replay" : "Failure message"}
                  placeholder={outcome.status === "succeeded" ? "The tool's result (JSON or text)" : "What went wrong"}
                  rows={3}
                  value={outcome.content}
                  onChange={(event) => set(effect.id, { content: event.target.value })}
                  className={`${inputClasses()} mt-1 font-mono text-xs`}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="primary"
          data-testid="review-requeue"
          disabled={!decided || review.isPending || !effects.isSuccess}
          onClick={() =>
            review.mutate({
              runId,
              resolution: { action: "requeue", effects: ambiguous.map((effect) => ({ effectId: effect.id, status: outcomes[effect.id]?.status ?? "failed", content: outcomes[effect.id]?.content ?? "" })) },
            })
          }
        >
          Settle and requeue
        </Button>
        <Button size="sm" variant="danger" data-testid="review-fail" disabled={review.isPending} onClick={() => review.mutate({ runId, resolution: { action: "fail", reason: "failed by a person during review" } })}>
          Fail the run
        </Button>
      </div>
      {review.error ? (
        <p role="alert" data-testid="review-error" className="mt-2 text-sm text-status-failed">
          {review.error.message}
        </p>
      ) : null}
    </section>
  );
}
