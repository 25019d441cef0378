import { writeFile } from "node:fs/promises";
import { RathError } from "../errors";
import type { Chunk } from "../session/chunk";
import { validateAcyclic } from "../session/graph";
import { Session, type SessionSnapshot } from "../session/session";
import { toJsonValue } from "./json-text";
import { pythonJsonText } from "./python-json";
import { BUNDLE_SCHEMA_VERSION, type BundleRun } from "./bundle-records";
import { stripSecretExtras, stripSecretPlacement, stripSecrets } from "./secrets";

/** One session to put in a bundle, with optional annotations (e.g. `node_id`, `status`) for the run view. */
export interface BundleSessionInput {
  session: Session | SessionSnapshot;
  annotations?: Record<string, unknown>;
}

/** Everything a bundle holds: sessions (any order; parents must be included), and optional run metadata and events. */
export interface BundleInput {
  sessions: Iterable<Session | SessionSnapshot | BundleSessionInput>;
  run?: (Partial<BundleRun> & { run_id: string; events?: readonly unknown[] }) | null;
  createdAt?: string;
}

interface Planned {
  snapshot: SessionSnapshot;
  annotations: Record<string, unknown>;
  bodies: string[];
}

const bodyCache = new WeakMap<Chunk, string>();

/** `"kind":...,"payload":...,"meta":...` of a chunk, cached per (frozen, shared) chunk object. */
function chunkBody(chunk: Chunk): string {
  let body = bodyCache.get(chunk);
  if (body === undefined) {
    body = pythonJsonText({ kind: chunk.kind, payload: chunk.payload, meta: chunk.meta }).slice(1, -1);
    if (Object.isFrozen(chunk)) bodyCache.set(chunk, body);
  }
  return body;
}

function normalise(entry: Session | SessionSnapshot | BundleSessionInput): { snapshot: SessionSnapshot; annotations: Record<string, unknown> } {
  if (entry instanceof Session) return { snapshot: entry.toSnapshot(), annotations: {} };
  if ("session" in entry) {
    const snapshot = entry.session instanceof Session ? entry.session.toSnapshot() : entry.session;
    return { snapshot, annotations: entry.annotations ?? {} };
  }
  return { snapshot: entry, annotations: {} };
}

/** Parents before children (stable otherwise), so a session's base is always written before it. */
function topologicalOrder(entries: Planned[]): Planned[] {
  const byId = new Map(entries.map((entry) => [entry.snapshot.id, entry]));
  const done = new Set<string>();
  const out: Planned[] = [];
  for (const root of entries) {
    const stack: Array<{ entry: Planned; next: number }> = [{ entry: root, next: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { entry: Planned; next: number };
      if (done.has(frame.entry.snapshot.id)) {
        stack.pop();
        continue;
      }
      const parents = frame.entry.snapshot.lineage.parent_session_ids;
      if (frame.next < parents.length) {
        const parent = byId.get(parents[frame.next++] as string);
        if (parent && !done.has(parent.snapshot.id)) stack.push({ entry: parent, next: 0 });
        continue;
      }
      done.add(frame.entry.snapshot.id);
      out.push(frame.entry);
      stack.pop();
    }
  }
  return out;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}

/**
 * The lines of a bundle, in order: a `bundle` line, then per session (parents first) a `session` line and the
 * chunk lines it does not share with its base (the parent it shares the longest chunk prefix with), then one
 * `event` line per run event. Secret-named keys are left out of placement env, extras, annotations and events.
 * Refuses (like `validateAcyclic`) a bundle with a missing parent or a cycle, and duplicate session ids.
 */
export function* bundleLines(input: BundleInput): Generator<string> {
  const planned: Planned[] = [];
  const seen = new Set<string>();
  for (const entry of input.sessions) {
    const { snapshot, annotations } = normalise(entry);
    if (seen.has(snapshot.id)) {
      throw new RathError("invalid_argument", `expected each session once in a bundle, found session ${snapshot.id} twice`);
    }
    seen.add(snapshot.id);
    planned.push({ snapshot, annotations, bodies: snapshot.chunks.map(chunkBody) });
  }
  validateAcyclic(planned.map((entry) => entry.snapshot));
  const events = input.run?.events ?? [];
  const run = input.run
    ? {
        run_id: input.run.run_id,
        workflow: input.run.workflow ?? null,
        // Written only when known, so bundles without it keep their bytes.
        ...(input.run.workflow_name == null ? {} : { workflow_name: input.run.workflow_name }),
        revision: input.run.revision ?? null,
        status: input.run.status ?? null,
      }
    : null;
  yield `${pythonJsonText({
    record_type: "bundle",
    schema_version: BUNDLE_SCHEMA_VERSION,
    created_at: input.createdAt ?? new Date().toISOString(),
    run,
    session_count: planned.length,
    event_count: events.length,
  })}\n`;

  const written = new Map<string, Planned>();
  for (const entry of topologicalOrder(planned)) {
    const snapshot = entry.snapshot;
    let base: { session_id: string; chunk_count: number } | null = null;
    for (const parentId of snapshot.lineage.parent_session_ids) {
      const parent = written.get(parentId);
      if (!parent) continue;
      const shared = commonPrefix(parent.bodies, entry.bodies);
      if (shared > 0 && shared > (base?.chunk_count ?? 0)) base = { session_id: parentId, chunk_count: shared };
    }
    const placement = stripSecretPlacement(snapshot.placement);
    let text = pythonJsonText({
      record_type: "session",
      id: snapshot.id,
      parent_session_ids: snapshot.lineage.parent_session_ids,
      lineage_operator: snapshot.lineage.lineage_operator,
      lineage_kind: snapshot.lineage.lineage_kind,
      lineage_extras: stripSecretExtras(snapshot.lineage.lineage_extras).map(([key, value]) => [key, toJsonValue(value)]),
      sandbox_backend: placement.backend,
      sandbox_spec: placement.spec,
      sandbox_handle_id: snapshot.sandbox_handle_id,
      usage: snapshot.usage,
      pending: snapshot.pending,
      provider: snapshot.provider,
      chunk_count: entry.bodies.length,
      base,
      annotations: toJsonValue(stripSecrets(entry.annotations)),
    });
    text += "\n";
    for (let index = base?.chunk_count ?? 0; index < entry.bodies.length; index++) {
      text += `{"record_type":"chunk","index":${index},${entry.bodies[index] as string}}\n`;
    }
    written.set(snapshot.id, entry);
    yield text;
  }
  for (let index = 0; index < events.length; index++) {
    yield `${pythonJsonText({ record_type: "event", index, event: toJsonValue(stripSecrets(events[index])) })}\n`;
  }
}

/** The whole bundle as one string. */
export function buildBundle(input: BundleInput): string {
  let out = "";
  for (const part of bundleLines(input)) out += part;
  return out;
}

/** Writes a bundle file (mode 0600). */
export async function writeBundle(file: string, input: BundleInput): Promise<void> {
  const text = buildBundle(input);
  try {
    await writeFile(file, text, { mode: 0o600 });
  } catch (error) {
    throw new RathError("io_error", `could not write bundle ${file}: ${(error as Error).message}`, { cause: error });
  }
}
