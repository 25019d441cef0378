"use client";
/**
 * Actions on the selected chunk, above the inspector: "Fork from here" (opens the fork dialog). Shown for sessions
 * of runs executed here (an imported run has no recorded steps to continue from).
 */
import { GitBranch } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { ForkDialog } from "./fork-dialog";

/** Props: the selected session and chunk, node labels; `canFork` false for imported runs. */
export interface ChunkActionsProps {
  sessionId: string;
  chunkIndex: number;
  labels: Readonly<Record<string, string>>;
  canFork: boolean;
}

/** The bar. */
export function ChunkActions({ sessionId, chunkIndex, labels, canFork }: ChunkActionsProps) {
  const [forking, setForking] = useState(false);
  if (!canFork) return null;
  return (
    <div data-testid="chunk-actions" className="flex shrink-0 flex-wrap items-center gap-1.5 border-b border-line px-3 py-1.5">
      <Button size="sm" icon={GitBranch} data-testid="fork-from-here" onClick={() => setForking(true)} title="Start a new run from this chunk: the chunks before it are replayed, then you may change the input, the next agent or a tool result">
        Fork from here
      </Button>
      <ForkDialog open={forking} onClose={() => setForking(false)} sessionId={sessionId} chunkIndex={chunkIndex} labels={labels} />
    </div>
  );
}
