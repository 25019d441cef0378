"use client";
/**
 * The run page: status (re-read every second while the run is active), final output or error, pending
 * approvals, the session list and the selected session's chunks. Data comes through tRPC (`runs.get`,
 * `sessions.graph`, `sessions.chunks`); the server page hands in the first `runs.get` answer.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { GraphSession, RunDetail } from "../trpc/router-types";
import { DemoProviderLabel } from "../ui/demo-provider-label";
import { formatDuration, formatTime, formatTokens, isActiveStatus, shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import { useTRPC } from "../trpc/trpc-context";
import { ChunkList } from "./chunk-list";
import { PendingApprovals } from "./pending-approvals";
import { SessionList } from "./session-list";

/** Props: the run, its first detail (server-rendered), its workflow's name and whether the demo provider answers. */
export interface RunViewProps {
  runId: string;
  initial: RunDetail;
  workflowName: string;
  usesDemoProvider: boolean;
}

function outputText(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (typeof output === "string") return output;
  if (typeof output === "object" && typeof (output as { text?: unknown }).text === "string") return (output as { text: string }).text;
  return JSON.stringify(output, null, 2);
}

function inputText(input: unknown): string | null {
  if (input === null || input === undefined) return null;
  return typeof input === "string" ? input : JSON.stringify(input);
}

/**
 * The session shown before the user picks one: the run's (first) output session, else the newest session an
 * operation produced (a loop, fork or merge holds the conversation), else the newest session.
 */
function defaultSessionId(sessions: GraphSession[], output: unknown): string | null {
  const outputs = (output as { outputs?: Array<{ sessionId?: unknown }> } | null)?.outputs ?? [];
  const outputId = outputs.find((entry) => typeof entry.sessionId === "string" && sessions.some((session) => session.id === entry.sessionId))?.sessionId;
  if (typeof outputId === "string") return outputId;
  const produced = sessions.filter((session) => session.lineage.lineage_kind.startsWith("op_"));
  return (produced[produced.length - 1] ?? sessions[sessions.length - 1])?.id ?? null;
}

/** The whole run page below the navigation bar. */
export function RunView({ runId, initial, workflowName, usesDemoProvider }: RunViewProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(
    trpc.runs.get.queryOptions(
      { runId },
      { initialData: initial, refetchInterval: (query) => (isActiveStatus(query.state.data?.run.status ?? "queued") ? 1000 : false) },
    ),
  );
  const run = detail.data?.run ?? initial.run;
  const live = isActiveStatus(run.status);
  const graph = useQuery(trpc.sessions.graph.queryOptions({ runId }, { refetchInterval: live ? 1000 : false }));
  const [chosenId, setChosenId] = useState<string | null>(null);

  // When the status changes (e.g. to succeeded) the graph and chunks are read once more, so the last step shows.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.sessions.graph.queryKey({ runId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.sessions.chunks.pathKey() });
  }, [run.status, runId, queryClient, trpc]);

  const sessions = graph.data?.sessions ?? [];
  const selectedId = chosenId !== null && sessions.some((session) => session.id === chosenId) ? chosenId : defaultSessionId(sessions, run.output);
  const output = outputText(run.output);
  const input = inputText(run.input);

  return (
    <main className="mx-auto max-w-6xl px-6 py-8" data-testid="run-page" data-run-id={run.id}>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">
          {workflowName} <span className="font-mono text-sm font-normal text-zinc-500" title={run.id}>{shortId(run.id)}</span>
        </h1>
        <StatusBadge status={run.status} testId="run-status" />
        {usesDemoProvider ? <DemoProviderLabel /> : null}
      </header>
      <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-zinc-500">Started</dt>
          <dd>{formatTime(run.startedAt ?? run.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Duration</dt>
          <dd>{formatDuration(run.startedAt, run.finishedAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Tokens</dt>
          <dd data-testid="run-tokens">{formatTokens(run.tokensUsed)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Input</dt>
          <dd data-testid="run-input-text" className="truncate" title={input ?? undefined}>
            {input ?? "(default)"}
          </dd>
        </div>
      </dl>

      <div className="mt-6 space-y-6">
        <PendingApprovals interrupts={detail.data?.pendingInterrupts ?? []} />
        {run.error !== null ? (
          <section data-testid="run-error" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm dark:border-red-800 dark:bg-red-950/40">
            <p className="font-semibold text-red-800 dark:text-red-300">
              {run.error.code}
              {typeof run.error.node_id === "string" ? ` at node ${run.error.node_id}` : ""}
            </p>
            <p className="mt-1 whitespace-pre-wrap">{run.error.message}</p>
          </section>
        ) : null}
        {output !== null ? (
          <section className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <h2 className="text-sm font-semibold text-zinc-500">Output</h2>
            <pre data-testid="run-output" className="mt-2 whitespace-pre-wrap break-words font-sans text-sm">
              {output}
            </pre>
          </section>
        ) : null}

        <div className="grid gap-6">
          <section className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <h2 className="mb-2 text-sm font-semibold text-zinc-500">Sessions</h2>
            {graph.isError ? (
              <p role="alert" className="text-sm text-red-700">
                {graph.error.message}
              </p>
            ) : graph.isPending ? (
              <p className="text-sm text-zinc-500">Loading sessions…</p>
            ) : (
              <SessionList sessions={sessions} selectedId={selectedId} onSelect={setChosenId} />
            )}
          </section>
          <section className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <h2 className="mb-2 text-sm font-semibold text-zinc-500">
              Chunks{selectedId === null ? "" : ` of ${shortId(selectedId)}`}
            </h2>
            {selectedId === null ? <p className="text-sm text-zinc-500">Select a session.</p> : <ChunkList key={selectedId} sessionId={selectedId} live={live} />}
          </section>
        </div>
      </div>
    </main>
  );
}
