/**
 * What a step commit needs to know about sessions stored by earlier commits: the bases it names (to check them and
 * to store the shallowest one) and the sessions it appends chunks to (owner run, stored count, usages).
 *
 * A session's owner run, base and base chunk count never change once stored, and its chunk count only grows
 * (append-only). So those facts are remembered per database handle (`rememberStoredSessions`, after a commit or a
 * read) and a commit whose bases are all known, with at least the chunks it shares, reads nothing: on the engine's
 * hot path a step's base is the session the step before it stored. Usages do change, so sessions a commit appends
 * to are always read.
 */
import { RathError } from "../../runtime/errors";
import { Usage } from "../../runtime/session/usage";
import type { DatabaseClient } from "./database";
import { fromJsonText } from "./json-text";
import { inList, type SqlValue } from "./raw-sql";
import type { SessionBase, SessionInput } from "./session-record";
import type { z } from "zod";

type ParsedSession = z.infer<typeof SessionInput>;

/** Facts of a stored session that never change (the chunk count only grows, so a remembered one is a lower bound). */
export interface StoredSessionFacts {
  runId: string;
  chunkCount: number;
  baseSessionId: string | null;
  baseChunkCount: number;
}

/** A stored session as a commit needs it; `usages` only for sessions read from the database in this commit. */
export interface StoredSession extends StoredSessionFacts {
  usages?: { usage: Usage | null; ownUsage: Usage | null };
}

/** Runs one read statement written with `?` placeholders (inside or outside a transaction). */
export type ReadRows = <Row>(sql: string, ...values: SqlValue[]) => Promise<Row[]>;

/** Most sessions remembered per handle; the oldest are forgotten first. */
const REMEMBERED_SESSIONS = 50_000;
const remembered = new WeakMap<DatabaseClient, Map<string, StoredSessionFacts>>();

function factsOf(client: DatabaseClient): Map<string, StoredSessionFacts> {
  let facts = remembered.get(client);
  if (facts === undefined) {
    facts = new Map();
    remembered.set(client, facts);
  }
  return facts;
}

/**
 * Remembers stored sessions' facts for later commits through `client` (call it after the transaction that wrote or
 * read them: a transaction body may run more than once). A smaller chunk count never replaces a larger one.
 */
export function rememberStoredSessions(client: DatabaseClient, sessions: ReadonlyMap<string, StoredSessionFacts>): void {
  const facts = factsOf(client);
  for (const [id, session] of sessions) {
    const known = facts.get(id);
    if (known !== undefined && known.chunkCount >= session.chunkCount) continue;
    facts.delete(id);
    facts.set(id, { runId: session.runId, chunkCount: session.chunkCount, baseSessionId: session.baseSessionId, baseChunkCount: session.baseChunkCount });
    if (facts.size > REMEMBERED_SESSIONS) facts.delete(facts.keys().next().value as string);
  }
}

/** The run of a stored session whose facts are remembered for `client`, or undefined (not remembered). */
export function rememberedRunOf(client: DatabaseClient, sessionId: string): string | undefined {
  return remembered.get(client)?.get(sessionId)?.runId;
}

/** Sessions of the commit that other sessions of the commit refer to, by id. */
function sessionsById(sessions: readonly ParsedSession[]): Map<string, ParsedSession> {
  return new Map(sessions.map((session) => [session.id, session]));
}

const STORED_SESSIONS_SQL = (count: number) =>
  `SELECT "id", "run_id", "chunk_count", "usage", "own_usage", "base_session_id", "base_chunk_count" FROM "sessions" WHERE "id" IN (${inList(count)})`;

interface StoredSessionRow {
  id: string;
  run_id: string;
  chunk_count: number | bigint;
  usage: string | null;
  own_usage: string | null;
  base_session_id: string | null;
  base_chunk_count: number | bigint;
}

/**
 * Which stored sessions a commit refers to: those it appends chunks to (always read, with their usages), the bases
 * it names, and (to keep chains shallow) the bases of those bases while a shared prefix lies entirely within them.
 * Bases remembered with enough chunks are taken from memory. `toRead` says what to read next; `add` takes the rows.
 */
class StoredSessionLookup {
  readonly stored = new Map<string, StoredSession>();
  private readonly inCommit: Map<string, ParsedSession>;
  private readonly appendedTo = new Set<string>();
  private readonly tried = new Set<string>();
  private readonly sharedAtMost: number;
  private wanted = new Set<string>();

  constructor(
    private readonly facts: ReadonlyMap<string, StoredSessionFacts> | undefined,
    private readonly sessions: readonly ParsedSession[],
    chunkSessionIds: Iterable<string>,
  ) {
    this.inCommit = sessionsById(sessions);
    this.sharedAtMost = Math.max(0, ...sessions.map((session) => session.base?.chunkCount ?? 0));
    for (const id of chunkSessionIds) if (!this.inCommit.has(id)) this.appendedTo.add(id);
    this.wanted = new Set(this.appendedTo);
    for (const session of sessions) if (session.base !== null && !this.inCommit.has(session.base.sessionId)) this.wanted.add(session.base.sessionId);
  }

  /** The ids to read next (none when the lookup is complete). */
  toRead(): string[] {
    while (this.wanted.size > 0) {
      const toRead: string[] = [];
      for (const id of this.wanted) {
        this.tried.add(id);
        const known = this.appendedTo.has(id) ? undefined : this.facts?.get(id);
        if (known !== undefined && known.chunkCount >= this.sharedAtMost) this.stored.set(id, known);
        else toRead.push(id);
      }
      this.wanted = this.nextWanted();
      if (toRead.length > 0) return toRead;
    }
    return [];
  }

  add(rows: readonly StoredSessionRow[]): void {
    for (const row of rows) {
      this.stored.set(row.id, {
        runId: row.run_id,
        chunkCount: Number(row.chunk_count),
        baseSessionId: row.base_session_id,
        baseChunkCount: Number(row.base_chunk_count),
        usages: {
          usage: row.usage === null ? null : fromJsonText(row.usage, Usage, `usage of session ${row.id}`),
          ownUsage: row.own_usage === null ? null : fromJsonText(row.own_usage, Usage, `own usage of session ${row.id}`),
        },
      });
    }
    this.wanted = this.nextWanted();
  }

  /** The bases of bases still unknown (a session read and not found stays missing: shallowestBase reports it). */
  private nextWanted(): Set<string> {
    const wanted = new Set<string>();
    for (const session of this.sessions) {
      if (session.base === null) continue;
      const next = nextShallowerBase(session.base, this.sessions, this.stored, this.inCommit);
      if (next !== null && !this.tried.has(next.sessionId)) wanted.add(next.sessionId);
    }
    return wanted;
  }
}

/** Looks up the stored sessions a commit refers to (see StoredSessionLookup), reading with `read`. */
export async function lookUpStoredSessions(
  client: DatabaseClient,
  read: ReadRows,
  sessions: readonly ParsedSession[],
  chunkSessionIds: Iterable<string>,
): Promise<Map<string, StoredSession>> {
  const lookup = new StoredSessionLookup(remembered.get(client), sessions, chunkSessionIds);
  for (let ids = lookup.toRead(); ids.length > 0; ids = lookup.toRead()) lookup.add(await read<StoredSessionRow>(STORED_SESSIONS_SQL(ids.length), ...ids));
  return lookup.stored;
}

/** `lookUpStoredSessions` with a synchronous reader (inside a SQLite transaction run in one go). */
export function lookUpStoredSessionsNow(
  client: DatabaseClient,
  read: <Row>(sql: string, ...values: SqlValue[]) => Row[],
  sessions: readonly ParsedSession[],
  chunkSessionIds: Iterable<string>,
): Map<string, StoredSession> {
  const lookup = new StoredSessionLookup(remembered.get(client), sessions, chunkSessionIds);
  for (let ids = lookup.toRead(); ids.length > 0; ids = lookup.toRead()) lookup.add(read<StoredSessionRow>(STORED_SESSIONS_SQL(ids.length), ...ids));
  return lookup.stored;
}

/**
 * Follows `base` down while its shared prefix lies entirely within the base's own base. Returns the session whose
 * data is not known yet, or null when every step was resolved.
 */
function nextShallowerBase(
  base: SessionBase,
  sessions: readonly ParsedSession[],
  stored: ReadonlyMap<string, StoredSession>,
  inCommit: ReadonlyMap<string, ParsedSession>,
): { sessionId: string } | null {
  let current = base.sessionId;
  for (let depth = 0; depth < sessions.length + 1000; depth += 1) {
    const committed = inCommit.get(current);
    const own = committed === undefined ? stored.get(current) : { baseSessionId: committed.base?.sessionId ?? null, baseChunkCount: committed.base?.chunkCount ?? 0 };
    if (own === undefined) return { sessionId: current };
    if (own.baseSessionId === null || base.chunkCount > own.baseChunkCount) return null;
    current = own.baseSessionId;
  }
  return null;
}

/** The base each session is stored with: its named base, or the deepest base of it that holds the whole shared prefix. */
export function withShallowestBases(sessions: readonly ParsedSession[], stored: ReadonlyMap<string, StoredSession>): ParsedSession[] {
  const inCommit = sessionsById(sessions);
  return sessions.map((session) => (session.base === null ? session : { ...session, base: shallowestBase(session, inCommit, stored) }));
}

function shallowestBase(session: ParsedSession, inCommit: ReadonlyMap<string, ParsedSession>, stored: ReadonlyMap<string, StoredSession>): SessionBase {
  const count = (session.base as SessionBase).chunkCount;
  let current = (session.base as SessionBase).sessionId;
  for (;;) {
    const committed = inCommit.get(current);
    const own = committed === undefined ? stored.get(current) : { chunkCount: committed.chunkCount, baseSessionId: committed.base?.sessionId ?? null, baseChunkCount: committed.base?.chunkCount ?? 0 };
    if (own === undefined) throw new RathError("invalid_argument", `base session ${current} of session ${session.id} is not stored`);
    if (count > own.chunkCount) {
      throw new RathError("invalid_argument", `session ${session.id} shares ${count} chunks with base ${current}, which has ${own.chunkCount}`);
    }
    if (own.baseSessionId === null || count > own.baseChunkCount) return { sessionId: current, chunkCount: count };
    current = own.baseSessionId;
  }
}
