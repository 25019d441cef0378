import { memoryHitText, type Chunk, type ChunkMeta } from "../session/chunk";
import { invalidLine, parseRecord } from "./jsonl-lines";
import { PAYLOAD_BY_KIND, REFERENCE_SCHEMA_VERSION, type ChunkRecord, type Dialect } from "./records";

/** The body of a chunk record (what follows `record_type` and `index`). */
export interface ChunkBody {
  kind: string;
  payload: Record<string, unknown>;
  meta?: ChunkMeta;
}

/**
 * How a chunk is written in a dialect. Dialect 2 writes it as it is, with `meta`. Dialect 1 (the strict
 * reference) writes the four reference kinds without `meta`; a memory chunk becomes one `system` chunk
 * `"[memory:{uri}] {snippet}"` per hit (none when it has no hits: commits and remembers are dropped), and a
 * route chunk is dropped (its decision is Rath-only evidence). Where recalled memory goes in a whole session
 * is `sessionBodies`' job.
 */
export function chunkBodies(chunk: Chunk, dialect: Dialect): ChunkBody[] {
  if (dialect !== REFERENCE_SCHEMA_VERSION) return [{ kind: chunk.kind, payload: chunk.payload, meta: chunk.meta }];
  switch (chunk.kind) {
    case "memory":
      return (chunk.payload.hits ?? []).map((hit) => ({ kind: "system", payload: { content: memoryHitText(hit) } }));
    case "route":
      return [];
    default:
      return [{ kind: chunk.kind, payload: chunk.payload }];
  }
}

/**
 * The chunk records of a whole session in a dialect. In dialect 1 the recalled memory comes first, newest
 * recall first: the reference's recall injection (`Agent._inject_memory_into`) prepends its system notes to the
 * whole session before the loop runs, while Rath appends a memory chunk after the messages it recalled for.
 */
export function sessionBodies(chunks: Iterable<Chunk>, dialect: Dialect): ChunkBody[] {
  const rest: ChunkBody[] = [];
  if (dialect !== REFERENCE_SCHEMA_VERSION) {
    for (const chunk of chunks) rest.push(...chunkBodies(chunk, dialect));
    return rest;
  }
  const recalls: ChunkBody[][] = [];
  for (const chunk of chunks) {
    const bodies = chunkBodies(chunk, dialect);
    if (chunk.kind === "memory") {
      if (bodies.length > 0) recalls.push(bodies);
    } else {
      rest.push(...bodies);
    }
  }
  return [...recalls.reverse().flat(), ...rest];
}

/**
 * Reads a chunk record into a Chunk. Dialect 1 knows only the reference kinds and gets `meta.at` from the
 * header's `created_at`; dialect 2 reads `meta` (filling `at` the same way when it is missing).
 */
export function chunkFromRecord(record: ChunkRecord, dialect: number, createdAt: string, file: string, line: number): Chunk {
  const kind = record.kind;
  if (!Object.hasOwn(PAYLOAD_BY_KIND, kind)) {
    throw invalidLine(file, line, `unknown chunk kind '${kind}'; expected system, user, assistant, tool_result, memory or route`);
  }
  const known = kind as keyof typeof PAYLOAD_BY_KIND;
  if (dialect === REFERENCE_SCHEMA_VERSION && (known === "memory" || known === "route")) {
    throw invalidLine(file, line, `chunk kind '${kind}' needs schema_version 2; this file declares schema_version 1`);
  }
  const payload = parseRecord(file, line, `${kind} payload`, PAYLOAD_BY_KIND[known], record.payload);
  const meta: ChunkMeta = dialect === REFERENCE_SCHEMA_VERSION || !record.meta ? { at: createdAt } : record.meta;
  return { kind: known, payload, meta } as Chunk;
}
