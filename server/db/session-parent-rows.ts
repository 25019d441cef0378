/**
 * The `session_parents` rows a commit writes: one per lineage edge whose parent is not a session of the child's own
 * run (a session of another run, as "Fork from here" stores it, or a parent that is not stored at all). Edges within
 * a run are not repeated there: every session row holds its parents in order (`sessions.parents`), and the run's
 * graph and a session's children within its run are read from that column (session-store.ts). So the table is the
 * index of the edges that cross runs, which is what only it can answer: "which sessions of other runs were forked
 * from this run" (run-forks.ts) without reading every run. Rows written before this rule, for edges within a run,
 * stay and are harmless: no reader depends on their absence.
 *
 * Whose run a parent belongs to: the commit's own sessions are the child's run; a session the commit looked up, or
 * whose facts this handle remembers (stored-session-lookup.ts), carries its run; any other parent is read (by id,
 * one statement for all of them). On the engine's hot path a step's parents are sessions of the step before, which
 * are remembered, so nothing is read.
 */
import type { DatabaseClient } from "./database";
import { inList, type SqlValue } from "./raw-sql";
import type { SessionInput } from "./session-record";
import { rememberedRunOf, type ReadRows, type StoredSession } from "./stored-session-lookup";
import type { z } from "zod";

type ParsedSession = z.infer<typeof SessionInput>;

const PARENT_RUNS_SQL = (count: number) => `SELECT "id", "run_id" FROM "sessions" WHERE "id" IN (${inList(count)})`;

interface ParentRunRow {
  id: string;
  run_id: string;
}

/** Where a commit finds the run of each parent it names, before anything is read. */
class ParentRuns {
  private readonly inCommit: Set<string>;
  private readonly read = new Map<string, string>();

  constructor(
    private readonly client: DatabaseClient,
    private readonly runId: string,
    private readonly sessions: readonly ParsedSession[],
    private readonly stored: ReadonlyMap<string, StoredSession>,
  ) {
    this.inCommit = new Set(sessions.map((session) => session.id));
  }

  private known(parentId: string): string | undefined {
    if (this.inCommit.has(parentId)) return this.runId;
    return this.stored.get(parentId)?.runId ?? rememberedRunOf(this.client, parentId) ?? this.read.get(parentId);
  }

  /** Parents whose run is not known without a read. */
  unknown(): string[] {
    const ids = new Set<string>();
    for (const session of this.sessions) for (const parentId of session.lineage.parent_session_ids) if (this.known(parentId) === undefined) ids.add(parentId);
    return [...ids];
  }

  add(rows: readonly ParentRunRow[]): void {
    for (const row of rows) this.read.set(row.id, row.run_id);
  }

  /** Rows (session id, position, parent id) for the edges whose parent is not of the child's run. */
  rows(): SqlValue[][] {
    const rows: SqlValue[][] = [];
    for (const session of this.sessions) {
      const parents = session.lineage.parent_session_ids;
      for (let position = 0; position < parents.length; position += 1) {
        const parentId = parents[position] as string;
        if (this.known(parentId) !== this.runId) rows.push([session.id, position, parentId]);
      }
    }
    return rows;
  }
}

/** The commit's `session_parents` rows, reading with `read` inside a SQLite transaction run in one go. */
export function crossRunParentRowsNow(
  client: DatabaseClient,
  read: <Row>(sql: string, ...values: SqlValue[]) => Row[],
  runId: string,
  sessions: readonly ParsedSession[],
  stored: ReadonlyMap<string, StoredSession>,
): SqlValue[][] {
  const parentRuns = new ParentRuns(client, runId, sessions, stored);
  const unknown = parentRuns.unknown();
  if (unknown.length > 0) parentRuns.add(read<ParentRunRow>(PARENT_RUNS_SQL(unknown.length), ...unknown));
  return parentRuns.rows();
}

/** `crossRunParentRowsNow` with an asynchronous reader (PostgreSQL: read before the commit statement). */
export async function crossRunParentRows(
  client: DatabaseClient,
  read: ReadRows,
  runId: string,
  sessions: readonly ParsedSession[],
  stored: ReadonlyMap<string, StoredSession>,
): Promise<SqlValue[][]> {
  const parentRuns = new ParentRuns(client, runId, sessions, stored);
  const unknown = parentRuns.unknown();
  if (unknown.length > 0) parentRuns.add(await read<ParentRunRow>(PARENT_RUNS_SQL(unknown.length), ...unknown));
  return parentRuns.rows();
}
