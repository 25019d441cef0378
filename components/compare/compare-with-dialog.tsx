"use client";
/**
 * "Compare with…": picks the second session for the compare page — another session of this run (by producing node),
 * or any session id (e.g. of another run) — then opens /compare?a=<this>&b=<chosen>.
 */
import { ArrowRightLeft } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import type { GraphSessionData } from "../run-state/live-graph";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, inputClasses } from "../ui/field";
import { shortId } from "../ui/format";

/** Props: the session compared (A), the run's sessions to choose from, node labels, open state. */
export interface CompareWithDialogProps {
  open: boolean;
  onClose: () => void;
  sessionId: string;
  sessions: readonly GraphSessionData[];
  labels: Readonly<Record<string, string>>;
}

/** The compare URL of two sessions. */
export function compareHref(a: string, b: string): string {
  return `/compare?${new URLSearchParams({ a, b }).toString()}`;
}

/** The dialog. */
export function CompareWithDialog({ open, onClose, sessionId, sessions, labels }: CompareWithDialogProps) {
  const router = useRouter();
  const id = useId();
  const [typed, setTyped] = useState("");
  const candidates = useMemo(
    () => sessions.filter((session) => session.id !== sessionId && !(session.lineage.lineage_kind === "leaf_system" && session.lineage.parent_session_ids.length === 0)).slice(-200).reverse(),
    [sessions, sessionId],
  );
  const go = (other: string) => {
    onClose();
    router.push(compareHref(sessionId, other));
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      testId="compare-with-dialog"
      title="Compare with…"
      description={
        <>
          Session <span className="font-mono">{shortId(sessionId)}</span> is A. Pick B.
        </>
      }
    >
      <div className="flex min-w-0 flex-col gap-3">
        <ul className="flex max-h-72 min-w-0 flex-col gap-1 overflow-y-auto" aria-label="Sessions of this run">
          {candidates.map((session) => (
            <li key={session.id} className="min-w-0">
              <button
                type="button"
                data-testid="compare-candidate"
                data-session-id={session.id}
                onClick={() => go(session.id)}
                className="flex w-full min-w-0 items-center gap-2 rounded-md border border-line px-2 py-1.5 text-left text-xs hover:bg-raised focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-focus"
              >
                <span className="min-w-0 flex-1 truncate text-ink">{session.nodeId === null ? "Session" : (labels[session.nodeId] ?? session.nodeId)}</span>
                <span className="shrink-0 font-mono text-muted">{session.lineage.lineage_kind.replace("op_", "")}</span>
                <span className="shrink-0 tabular text-muted">{session.chunkCount} chunks</span>
                <span className="shrink-0 font-mono text-faint">{shortId(session.id)}</span>
              </button>
            </li>
          ))}
          {candidates.length === 0 ? <li className="text-xs text-muted">This run has no other session; paste the id of one from another run below.</li> : null}
        </ul>
        <form
          className="flex min-w-0 items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed.trim() !== "") go(typed.trim());
          }}
        >
          <Field id={`${id}-other`} label="Or a session id (any run)" className="flex-1">
            <input id={`${id}-other`} data-testid="compare-other-id" className={`${inputClasses()} font-mono text-xs`} value={typed} onChange={(event) => setTyped(event.target.value)} placeholder="session id" />
          </Field>
          <Button type="submit" icon={ArrowRightLeft} disabled={typed.trim() === ""}>
            Compare
          </Button>
        </form>
      </div>
    </Dialog>
  );
}
