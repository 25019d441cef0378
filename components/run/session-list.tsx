/** The sessions of a run: short id, node, lineage kind, parents, chunk count, usage; failed ones marked. */
import type { GraphSession } from "../trpc/router-types";
import { shortId } from "../ui/format";

/** Props: the sessions in creation order, the selected one and the selection callback. */
export interface SessionListProps {
  sessions: GraphSession[];
  selectedId: string | null;
  onSelect: (sessionId: string) => void;
}

/** A table whose rows select a session. */
export function SessionList({ sessions, selectedId, onSelect }: SessionListProps) {
  if (sessions.length === 0) {
    return (
      <p data-testid="sessions-empty" className="text-sm text-zinc-500">
        No sessions stored yet.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="session-list">
        <thead className="text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-2 py-1 font-medium">Session</th>
            <th className="px-2 py-1 font-medium">Node</th>
            <th className="px-2 py-1 font-medium">Lineage</th>
            <th className="px-2 py-1 font-medium">Parents</th>
            <th className="px-2 py-1 text-right font-medium">Chunks</th>
            <th className="px-2 py-1 text-right font-medium">Tokens</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => {
            const selected = session.id === selectedId;
            const failed = session.status === "failed";
            return (
              <tr
                key={session.id}
                data-testid="session-row"
                data-session-id={session.id}
                data-node-id={session.nodeId ?? ""}
                data-status={session.status}
                data-lineage-kind={session.lineage.lineage_kind}
                aria-selected={selected}
                onClick={() => onSelect(session.id)}
                className={`cursor-pointer border-t border-zinc-100 dark:border-zinc-800 ${selected ? "bg-sky-50 dark:bg-sky-950/40" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/50"} ${failed ? "text-red-700 dark:text-red-400" : ""}`}
              >
                <td className="px-2 py-1 font-mono text-xs whitespace-nowrap">
                  <button type="button" className="hover:underline" title={session.id} onClick={() => onSelect(session.id)}>
                    {shortId(session.id)}
                  </button>
                  {failed ? (
                    <span data-testid="session-failed" className="ml-2 rounded bg-red-100 px-1 text-red-800 dark:bg-red-900/50 dark:text-red-200" title={session.error ?? undefined}>
                      failed
                    </span>
                  ) : null}
                </td>
                <td className="px-2 py-1" data-testid="session-node">
                  {session.nodeId ?? "—"}
                </td>
                <td className="px-2 py-1 font-mono text-xs" data-testid="session-lineage">
                  {session.lineage.lineage_kind}
                </td>
                <td className="px-2 py-1 font-mono text-xs whitespace-nowrap" title={session.lineage.parent_session_ids.join(", ")}>
                  {session.lineage.parent_session_ids.map(shortId).join(" ") || "—"}
                </td>
                <td className="px-2 py-1 text-right tabular-nums" data-testid="session-chunk-count">
                  {session.chunkCount}
                </td>
                <td className="px-2 py-1 text-right tabular-nums" title={session.ownUsage === null ? undefined : `prompt ${session.ownUsage.prompt_tokens}, completion ${session.ownUsage.completion_tokens}`}>
                  {session.ownUsage === null ? "—" : session.ownUsage.total_tokens}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
