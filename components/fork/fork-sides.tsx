"use client";
/**
 * For a chunk of a merge's output: where the fork starts — the merged session at that chunk (every branch's chunks
 * up to it, continuing after the merge), or the branch the chunk came from (that branch continues from its own chunk,
 * and the merge joins it again with the other branches as recorded). Radio buttons: arrow keys move between them.
 */
import { useId } from "react";
import type { RouterOutputs } from "../trpc/router-types";
import { shortId } from "../ui/format";

type ForkSide = RouterOutputs["runs"]["forkPreview"]["sides"][number];

/** Props: the sides, the chosen one's session id, the setter, node labels. */
export interface ForkSidesProps {
  sides: readonly ForkSide[];
  chosen: string;
  onChoose: (side: ForkSide) => void;
  labels: Readonly<Record<string, string>>;
}

function nodeName(nodeId: string | null, labels: Readonly<Record<string, string>>): string {
  return nodeId === null ? "an imported step" : (labels[nodeId] ?? nodeId);
}

/** The merge node of a set of sides (the merged session's producer). */
export function mergeNodeOf(sides: readonly ForkSide[]): string | null {
  return sides.find((side) => side.role === "merged")?.nodeId ?? null;
}

/** What a fork from this side keeps, in words. */
export function sideContents(side: ForkSide, labels: Readonly<Record<string, string>>, mergeNodeId: string | null): string {
  const continues = side.continuesAt.map((node) => nodeName(node, labels)).join(", ") || "the merge that waits for it";
  if (side.role === "branch") {
    const branch = `Chunks 0–${side.keptChunks - 1} of ${nodeName(side.nodeId, labels)}'s branch`;
    const rejoin = "the merge joins it again with the other branches as recorded";
    // At the branch's last chunk the fork goes straight to the merge (only an edited tool result changes it).
    return side.continuesAt.length === 0 || side.continuesAt.every((node) => node === mergeNodeId)
      ? `${branch}; ${rejoin}, then the run continues after the merge.`
      : `${branch}; ${continues} continues from there, and ${rejoin}.`;
  }
  const parts = side.parts
    .filter((part) => part.kept > 0)
    .map((part) => `${part.kept === part.total ? `all ${part.total}` : `${part.kept} of ${part.total}`} chunks of ${nodeName(part.nodeId, labels)}`)
    .join(", ");
  return `Chunks 0–${side.keptChunks - 1} of the merged session (${parts}); the run continues after the merge at ${continues}.`;
}

/** The choice, as a radio group. */
export function ForkSides({ sides, chosen, onChoose, labels }: ForkSidesProps) {
  const id = useId();
  const mergeNodeId = mergeNodeOf(sides);
  return (
    <fieldset data-testid="fork-sides" className="min-w-0 rounded-md border border-line p-3">
      <legend className="px-1 text-xs font-semibold text-muted">Fork from</legend>
      <div className="flex min-w-0 flex-col gap-2">
        {sides.map((side, index) => (
          // The label's text is the side's name and contents (expressions the lint rule cannot read as text).
          // eslint-disable-next-line jsx-a11y/label-has-associated-control
          <label key={side.sessionId} htmlFor={`${id}-${index}`} data-testid="fork-side" data-role={side.role} className="flex min-w-0 cursor-pointer items-start gap-2 rounded-md p-1.5 text-sm has-[:checked]:bg-raised">
            <input id={`${id}-${index}`} type="radio" name={id} className="mt-1 accent-accent" checked={side.sessionId === chosen} onChange={() => onChoose(side)} />
            <span className="min-w-0">
              <span className="font-medium text-ink">
                {side.role === "merged" ? "The merged session" : `${nodeName(side.nodeId, labels)}'s branch`}{" "}
                <span className="font-mono text-xs font-normal text-faint">
                  {shortId(side.sessionId)} · chunk {side.chunkIndex}
                </span>
              </span>
              <span className="block text-xs text-muted">{sideContents(side, labels, mergeNodeId)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
