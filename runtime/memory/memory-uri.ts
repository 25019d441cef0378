import { z } from "zod";
import { RathError } from "../errors";

/** The four memory scopes of SPEC §5. */
export const MEMORY_SCOPES = ["user", "agent", "session", "resources"] as const;
export const MemoryScope = z.enum(MEMORY_SCOPES);
export type MemoryScope = z.infer<typeof MemoryScope>;

const PREFIX = "memory://";

/** A parsed memory URI: `memory://{scope}/{segments...}`. */
export interface ParsedMemoryUri {
  scope: MemoryScope;
  segments: string[];
}

/**
 * Parses and validates `memory://scope/...`. Refuses other schemes, unknown scopes, empty segments and
 * `.`/`..` (path traversal) with `invalid_memory_uri`. A bare scope (`memory://user`) is allowed when
 * `allowScopeOnly` is set (recall filters), not for documents.
 */
export function parseMemoryUri(uri: string, options: { allowScopeOnly?: boolean } = {}): ParsedMemoryUri {
  if (!uri.startsWith(PREFIX)) {
    throw new RathError("invalid_memory_uri", `memory URI must start with '${PREFIX}'; found '${uri}'`);
  }
  const tail = uri.slice(PREFIX.length).replace(/\/+$/, options.allowScopeOnly ? "" : "/");
  const [scope, ...segments] = tail.split("/");
  const parsedScope = MemoryScope.safeParse(scope);
  if (!parsedScope.success) {
    throw new RathError(
      "invalid_memory_uri",
      `unknown memory scope '${scope ?? ""}' in '${uri}'; expected one of ${MEMORY_SCOPES.join(", ")}`,
    );
  }
  if (segments.length === 0 && !options.allowScopeOnly) {
    throw new RathError("invalid_memory_uri", `memory URI '${uri}' names a scope but no document (expected memory://${scope}/...)`);
  }
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new RathError("invalid_memory_uri", `forbidden path segment '${segment}' in memory URI '${uri}' (empty, '.' and '..' are refused)`);
    }
  }
  return { scope: parsedScope.data, segments };
}

/** Builds a memory URI from a scope and path segments (each validated). */
export function memoryUri(scope: MemoryScope, ...segments: string[]): string {
  const uri = `${PREFIX}${scope}/${segments.join("/")}`;
  parseMemoryUri(uri);
  return uri;
}
