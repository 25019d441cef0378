"use client";
/**
 * "Fork from here": what a fork at this chunk keeps (replayed from the store: no model call, no tool run) and where
 * it continues (`runs.forkPreview`), then what may change before it does — the run input, the next agent's system
 * prompt and model, a recorded tool result, the workflow revision. Only changed fields are sent (`runs.forkFrom`);
 * the page opens the new run.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { GitBranch, TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, inputClasses } from "../ui/field";
import { shortId } from "../ui/format";
import { ForkAftermath } from "./fork-aftermath";
import { buildForkEdits, pickRevision, type ForkDraft } from "./fork-edits";
import { ForkRevisionPicker } from "./fork-revision-picker";
import { ForkSides, mergeNodeOf, sideContents } from "./fork-sides";

/** Props: the chunk to fork from, node labels, open state. */
export interface ForkDialogProps {
  open: boolean;
  onClose: () => void;
  sessionId: string;
  chunkIndex: number;
  labels: Readonly<Record<string, string>>;
}

const EMPTY_DRAFT: ForkDraft = { input: null, instructions: null, model: null, toolResults: {}, revisionId: null };

/** The dialog. */
export function ForkDialog({ open, onClose, sessionId, chunkIndex, labels }: ForkDialogProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const id = useId();
  // Where the fork starts: the chunk clicked, or (for a merge's output) the branch that chunk came from.
  const [target, setTarget] = useState({ sessionId, chunkIndex });
  const clicked = useQuery({ ...trpc.runs.forkPreview.queryOptions({ sessionId, chunkIndex }, { staleTime: 30_000, retry: false }), enabled: open });
  const [draft, setDraft] = useState<ForkDraft>(EMPTY_DRAFT);
  // The preview of the revision picked (its next agent's prompt and model); the same chunk's previous preview stays
  // shown, not submittable, while the picked one loads.
  const previewInput = draft.revisionId === null ? target : { ...target, revisionId: draft.revisionId };
  const preview = useQuery({
    ...trpc.runs.forkPreview.queryOptions(previewInput, { staleTime: 30_000, retry: false }),
    enabled: open,
    placeholderData: (previous) => (previous?.sessionId === target.sessionId && previous.chunkIndex === target.chunkIndex ? previous : undefined),
  });
  useEffect(() => {
    if (!open) return;
    setDraft(EMPTY_DRAFT);
    setTarget({ sessionId, chunkIndex });
  }, [open, sessionId, chunkIndex]);
  const sides = clicked.data?.sides ?? [];
  const side = sides.find((candidate) => candidate.sessionId === target.sessionId);
  const fork = useMutation(
    trpc.runs.forkFrom.mutationOptions({
      onSuccess: (forked) => {
        toast.success(`Forked into run ${shortId(forked.run.id)}`);
        // The original run now has one more fork: its lineage strip must not show the cached list without it.
        void queryClient.invalidateQueries({ queryKey: trpc.runs.lineage.queryKey() });
        onClose();
        router.push(`/runs/${encodeURIComponent(forked.run.id)}`);
      },
    }),
  );
  const data = preview.data;
  const edits = data === undefined || preview.isPlaceholderData ? null : buildForkEdits(data, draft);
  const revisions = clicked.data?.revisions ?? data?.revisions ?? [];
  const chosenRevision = draft.revisionId ?? revisions.find((revision) => revision.current)?.id ?? "";
  const continuesAt = data?.continuesAt.map((node) => labels[node] ?? node).join(", ") ?? "";
  const submit = () => {
    if (edits === null) return;
    fork.mutate({ ...target, edits });
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      testId="fork-dialog"
      title="Fork from here"
      description={
        data === undefined ? (
          <>
            Session <span className="font-mono">{shortId(sessionId)}</span>, chunk {chunkIndex}
          </>
        ) : (
          <span data-testid="fork-summary">
            {side === undefined ? (
              <>
                Chunks 0–{data.keptChunks - 1} of session <span className="font-mono">{shortId(target.sessionId)}</span> are replayed from the store — no model
                call, no tool run. The new run continues live at <span className="font-medium text-ink">{continuesAt || "the merge that waits for it"}</span>.
              </>
            ) : (
              <>
                {sideContents(side, labels, mergeNodeOf(sides))} What the fork keeps is replayed from the store — no model call, no tool run.
              </>
            )}
          </span>
        )
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" icon={GitBranch} data-testid="fork-submit" disabled={edits === null || fork.isPending} onClick={submit}>
            {fork.isPending ? "Forking…" : "Fork and run"}
          </Button>
        </>
      }
    >
      {sides.length > 0 ? (
        <div className="mb-4">
          <ForkSides
            sides={sides}
            chosen={target.sessionId}
            labels={labels}
            onChoose={(chosen) => {
              setDraft(EMPTY_DRAFT);
              setTarget({ sessionId: chosen.sessionId, chunkIndex: chosen.chunkIndex });
            }}
          />
        </div>
      ) : null}
      <div className="mb-4 empty:hidden">
        <ForkRevisionPicker id={`${id}-revision`} revisions={revisions} chosen={chosenRevision} onChoose={(revisionId) => setDraft(pickRevision(draft, revisionId))} />
      </div>
      {preview.isPending ? (
        <div data-testid="fork-loading" className="h-40 animate-pulse rounded-md bg-raised" />
      ) : preview.error !== null ? (
        <p role="alert" data-testid="fork-refused" className="flex items-start gap-2 text-sm text-status-failed">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="[overflow-wrap:anywhere]">
            {draft.revisionId === null ? "This chunk cannot be forked" : "The picked revision cannot continue this fork"}: {preview.error.message}
          </span>
        </p>
      ) : data !== undefined ? (
        <form
          className="flex min-w-0 flex-col gap-4"
          data-revision-id={data.revisionId}
          aria-busy={preview.isPlaceholderData}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <ForkAftermath approvals={data.approvals} replayed={data.replayed} alsoRuns={data.alsoRuns} labels={labels} />
          {data.input !== null ? (
            <Field id={`${id}-input`} label="Run input" hint="The text of the run's input chunk in the replayed prefix.">
              <textarea
                id={`${id}-input`}
                data-testid="fork-input"
                rows={2}
                className={`${inputClasses()} resize-y`}
                value={draft.input ?? data.input}
                onChange={(event) => setDraft({ ...draft, input: event.target.value })}
              />
            </Field>
          ) : null}
          {data.nextAgent !== null ? (
            <fieldset className="min-w-0 rounded-md border border-line p-3">
              <legend className="px-1 text-xs font-semibold text-muted">
                Next agent: <span className="text-ink">{labels[data.nextAgent.nodeId] ?? data.nextAgent.name}</span>
              </legend>
              <div className="flex min-w-0 flex-col gap-3">
                <Field id={`${id}-instructions`} label="System prompt">
                  <textarea
                    id={`${id}-instructions`}
                    data-testid="fork-instructions"
                    rows={4}
                    className={`${inputClasses()} resize-y font-mono text-xs`}
                    value={draft.instructions ?? data.nextAgent.instructions}
                    onChange={(event) => setDraft({ ...draft, instructions: event.target.value })}
                  />
                </Field>
                <Field id={`${id}-model`} label="Model" hint={data.nextAgent.provider === null ? "The workflow's default provider." : `Provider ${data.nextAgent.provider}.`}>
                  <input
                    id={`${id}-model`}
                    data-testid="fork-model"
                    className={inputClasses()}
                    placeholder="the workflow's default model"
                    value={draft.model ?? data.nextAgent.model ?? ""}
                    onChange={(event) => setDraft({ ...draft, model: event.target.value })}
                  />
                </Field>
              </div>
            </fieldset>
          ) : null}
          {data.toolResults.length > 0 ? (
            <fieldset className="min-w-0 rounded-md border border-line p-3">
              <legend className="px-1 text-xs font-semibold text-muted">Recorded tool results</legend>
              <ul className="flex min-w-0 flex-col gap-2">
                {data.toolResults.map((result) => (
                  <li key={result.chunkIndex} className="min-w-0">
                    <details data-testid="fork-tool-result" data-index={result.chunkIndex} open={!result.ok || draft.toolResults[result.chunkIndex] !== undefined}>
                      <summary className="cursor-pointer text-xs text-ink">
                        <span className="font-mono">#{result.chunkIndex}</span> <span className="font-mono">{result.name}</span>{" "}
                        {result.ok ? <span className="text-muted">ok</span> : <span className="font-medium text-status-failed">failed</span>}
                      </summary>
                      <textarea
                        aria-label={`Result of ${result.name} (chunk ${result.chunkIndex})`}
                        data-testid="fork-tool-result-text"
                        rows={3}
                        className={`${inputClasses()} mt-1 resize-y font-mono text-xs`}
                        value={draft.toolResults[result.chunkIndex] ?? result.content}
                        onChange={(event) => setDraft({ ...draft, toolResults: { ...draft.toolResults, [result.chunkIndex]: event.target.value } })}
                      />
                    </details>
                  </li>
                ))}
              </ul>
            </fieldset>
          ) : null}
          {fork.error !== null ? (
            <p role="alert" data-testid="fork-error" className="text-sm text-status-failed [overflow-wrap:anywhere]">
              Could not fork: {fork.error.message}
            </p>
          ) : null}
        </form>
      ) : null}
    </Dialog>
  );
}
