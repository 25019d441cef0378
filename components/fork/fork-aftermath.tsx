/**
 * What else the fork does after the replayed prefix: approvals the original already decided are applied as decided
 * (not asked again), approvals it had not decided are asked again, steps of other branches the original recorded
 * are replayed from it (no model call), and steps it never ran on those inputs run live (they may call a model).
 * Nothing when none of these apply.
 */
import { CircleCheck, CirclePause, History, Play } from "lucide-react";
import type { RouterOutputs } from "../trpc/router-types";

type Preview = RouterOutputs["runs"]["forkPreview"];

/** Props: the preview's approvals and other live steps, node labels. */
export interface ForkAftermathProps {
  approvals: Preview["approvals"];
  replayed: Preview["replayed"];
  alsoRuns: Preview["alsoRuns"];
  labels: Readonly<Record<string, string>>;
}

const DECISION_WORDS = { approve: "approved", reject: "rejected", edit: "edited", respond: "answered" } as const;

/** The list. */
export function ForkAftermath({ approvals, replayed, alsoRuns, labels }: ForkAftermathProps) {
  const name = (nodeId: string) => labels[nodeId] ?? nodeId;
  if (approvals.carried.length === 0 && approvals.askedAgain.length === 0 && replayed.length === 0 && alsoRuns.length === 0) return null;
  return (
    <ul data-testid="fork-aftermath" className="flex min-w-0 flex-col gap-1 text-sm">
      {approvals.carried.map((carried) => (
        <li key={`carried-${carried.nodeId}`} data-testid="fork-approval-carried" data-node-id={carried.nodeId} className="flex items-start gap-2">
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-status-succeeded" aria-hidden="true" />
          <span>
            <span className="font-medium">{name(carried.nodeId)}</span>: {DECISION_WORDS[carried.decision]} in the original run — the fork applies that decision and does not ask again.
          </span>
        </li>
      ))}
      {approvals.askedAgain.map((asked) => (
        <li key={`asked-${asked.nodeId}`} data-testid="fork-approval-asked" data-node-id={asked.nodeId} className="flex items-start gap-2">
          <CirclePause className="mt-0.5 size-4 shrink-0 text-status-waiting" aria-hidden="true" />
          <span>
            <span className="font-medium">{name(asked.nodeId)}</span>:{" "}
            {asked.reason === "undecided" ? "not decided in the original run yet — the fork asks for its own decision." : "its input is the forked session — the fork asks again."}
          </span>
        </li>
      ))}
      {replayed.length > 0 ? (
        <li data-testid="fork-replayed" className="flex items-start gap-2">
          <History className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden="true" />
          <span>
            Replayed from the original run, without calling a model (they do not depend on this point):{" "}
            <span className="font-medium">{[...new Set(replayed)].map(name).join(", ")}</span>.
          </span>
        </li>
      ) : null}
      {alsoRuns.length > 0 ? (
        <li data-testid="fork-also-runs" className="flex items-start gap-2">
          <Play className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden="true" />
          <span>
            Also runs live (the original never ran it on these inputs): <span className="font-medium">{alsoRuns.map(name).join(", ")}</span>.
          </span>
        </li>
      ) : null}
    </ul>
  );
}
