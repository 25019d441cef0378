/**
 * Pure: whether the runs picked on /runs can be compared, and where the comparison is. Two runs compare by their
 * output sessions (`/compare?runs=A,B`, resolved by the compare page); a run that never started has no session, so
 * it cannot be compared. Runs of different workflows, or still moving, can be compared, with a note saying so.
 */
import { shortId } from "../ui/format";

/** A run as the picker keeps it (also when it is no longer on the current page of the list). */
export interface PickedRun {
  id: string;
  workflowId: string;
  workflowName: string;
  status: string;
  startedAt: string | null;
}

/** The verdict: the compare page's address when the pair can be compared, else the reason it cannot; and notes. */
export interface ComparePickVerdict {
  href: string | null;
  problem: string | null;
  notes: string[];
}

const MOVING = new Set(["queued", "running", "waiting"]);

/** The verdict for the picked runs, in the order they were picked (the first is A). */
export function comparePickVerdict(picked: readonly PickedRun[]): ComparePickVerdict {
  if (picked.length === 0) return { href: null, problem: "Select two runs to compare them.", notes: [] };
  if (picked.length === 1) return { href: null, problem: "Select one more run to compare with.", notes: [] };
  if (picked.length > 2) return { href: null, problem: `Select exactly two runs to compare; ${picked.length} are selected.`, notes: [] };
  const [a, b] = picked as [PickedRun, PickedRun];
  const unstarted = picked.find((run) => run.startedAt === null);
  if (unstarted !== undefined) {
    return { href: null, problem: `Run ${shortId(unstarted.id)} never started (${unstarted.status}), so it has no session to compare.`, notes: [] };
  }
  const notes: string[] = [];
  if (a.workflowId !== b.workflowId) notes.push(`Different workflows (${a.workflowName}, ${b.workflowName}): their output sessions are compared chunk by chunk.`);
  for (const run of picked) if (MOVING.has(run.status)) notes.push(`Run ${shortId(run.id)} is ${run.status}: it is compared as it is now.`);
  return { href: `/compare?runs=${encodeURIComponent(a.id)},${encodeURIComponent(b.id)}`, problem: null, notes };
}
