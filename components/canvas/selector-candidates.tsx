"use client";
/**
 * A Selector's candidates in its properties: the nodes its `out` wires lead to, in wire order (the index its model
 * answers with), each with the description the model reads to choose, editable here (it is the candidate node's
 * own description), and where `done` goes. Every edit is a store edit, undoable like any other.
 */
import { nodeDisplayName } from "./canvas-document";
import { useCanvasStore, useCanvasStoreApi } from "./canvas-store-context";
import { inputClasses } from "../ui/field";

/** The candidates of the Selector `selectorId`. */
export function SelectorCandidates({ selectorId }: { selectorId: string }) {
  const store = useCanvasStoreApi();
  const nodes = useCanvasStore((state) => state.document.nodes);
  const edges = useCanvasStore((state) => state.document.edges);
  const readOnly = useCanvasStore((state) => state.readOnly);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const candidates = edges.filter((edge) => edge.source === selectorId && edge.sourcePort === "out").map((edge) => byId.get(edge.target));
  const done = edges.find((edge) => edge.source === selectorId && edge.sourcePort === "done");
  const doneNode = done === undefined ? undefined : byId.get(done.target);
  return (
    <section aria-labelledby={`${selectorId}-candidates`} className="space-y-2" data-testid="selector-candidates">
      <h3 id={`${selectorId}-candidates`} className="text-xs font-semibold tracking-wide text-faint uppercase">
        Candidates
      </h3>
      {candidates.length === 0 ? <p className="text-xs text-faint">No candidates yet: wire this Selector&apos;s out port to the nodes it chooses between.</p> : null}
      <ol className="space-y-2">
        {candidates.map((candidate, index) =>
          candidate === undefined ? null : (
            <li key={`${index}-${candidate.id}`} className="space-y-1" data-testid="selector-candidate" data-node-id={candidate.id}>
              <div className="flex min-w-0 items-baseline gap-2 text-sm">
                <span className="font-mono text-xs text-faint tabular-nums">{index}</span>
                <button type="button" className="min-w-0 truncate font-medium text-ink hover:text-accent hover:underline" onClick={() => store.getState().select({ nodes: [candidate.id], edges: [] })}>
                  {nodeDisplayName(candidate)}
                </button>
              </div>
              <label htmlFor={`${selectorId}-candidate-${candidate.id}`} className="sr-only">
                Description of candidate {index}, {nodeDisplayName(candidate)}
              </label>
              <textarea
                id={`${selectorId}-candidate-${candidate.id}`}
                rows={2}
                className={inputClasses()}
                disabled={readOnly}
                placeholder="What this candidate is for (the Selector's model reads it)"
                value={candidate.description ?? ""}
                data-testid="selector-candidate-description"
                onChange={(event) => store.getState().updateNode(candidate.id, { description: event.target.value }, `${candidate.id}.description`)}
              />
            </li>
          ),
        )}
      </ol>
      <p className="text-xs text-muted">
        <span className="font-medium">done</span> → {doneNode === undefined ? "ends the branch" : nodeDisplayName(doneNode)}
      </p>
    </section>
  );
}
