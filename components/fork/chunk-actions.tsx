"use client";
/**
 * Actions on the selection, above the inspector: "Compare with…" for the selected session (compare page), and
 * "Fork from here" for the selected chunk (fork dialog; only for sessions of runs executed here — an imported run
 * has no recorded steps to continue from).
 */
import { ArrowRightLeft, GitBranch } from "lucide-react";
import { useState } from "react";
import { CompareWithDialog } from "../compare/compare-with-dialog";
import type { GraphSessionData } from "../run-state/live-graph";
import { Button } from "../ui/button";
import { ForkDialog } from "./fork-dialog";

/** Props: the selected session and chunk (null: none), the run's sessions and node labels. */
export interface ChunkActionsProps {
  session: GraphSessionData;
  chunkIndex: number | null;
  sessions: readonly GraphSessionData[];
  labels: Readonly<Record<string, string>>;
}

/** The bar. */
export function ChunkActions({ session, chunkIndex, sessions, labels }: ChunkActionsProps) {
  const [forking, setForking] = useState(false);
  const [comparing, setComparing] = useState(false);
  const canFork = chunkIndex !== null && chunkIndex < session.chunkCount && session.nodeId !== null;
  return (
    <div data-testid="chunk-actions" className="flex shrink-0 flex-wrap items-center gap-1.5 border-b border-line px-3 py-1.5">
      {canFork ? (
        <Button size="sm" icon={GitBranch} data-testid="fork-from-here" onClick={() => setForking(true)} title="Start a new run from this chunk: the chunks before it are replayed, then you may change the input, the next agent or a tool result">
          Fork from here
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" icon={ArrowRightLeft} data-testid="compare-with" onClick={() => setComparing(true)} title="Compare this session with another one">
        Compare with…
      </Button>
      {canFork ? <ForkDialog open={forking} onClose={() => setForking(false)} sessionId={session.id} chunkIndex={chunkIndex} labels={labels} /> : null}
      <CompareWithDialog open={comparing} onClose={() => setComparing(false)} sessionId={session.id} sessions={sessions} labels={labels} />
    </div>
  );
}
