/**
 * The selection in the URL (`?session=<id>&chunk=<index>`), so a copied link opens exactly that view. Pure: parse
 * what the page was opened with, and build the query for a new selection (other parameters are kept).
 */

/** A selection as the URL carries it. */
export interface UrlSelection {
  sessionId: string | null;
  chunkIndex: number | null;
}

function first(value: string | string[] | undefined | null): string | null {
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

/** The selection in search parameters (Next.js's `searchParams` object or a `URLSearchParams`); bad values are ignored. */
export function parseUrlSelection(params: Record<string, string | string[] | undefined> | URLSearchParams): UrlSelection {
  const get = (key: string): string | null => (params instanceof URLSearchParams ? params.get(key) : first(params[key]));
  const session = get("session");
  const chunk = get("chunk");
  const sessionId = session !== null && /^[A-Za-z0-9_-]{1,128}$/.test(session) ? session : null;
  const chunkIndex = sessionId !== null && chunk !== null && /^\d{1,9}$/.test(chunk) ? Number(chunk) : null;
  return { sessionId, chunkIndex };
}

/** The search string (with `?`, or empty) for `selection`, keeping the other parameters of `current`. */
export function selectionSearch(current: string, selection: UrlSelection): string {
  const params = new URLSearchParams(current);
  params.delete("session");
  params.delete("chunk");
  if (selection.sessionId !== null) {
    params.set("session", selection.sessionId);
    if (selection.chunkIndex !== null) params.set("chunk", String(selection.chunkIndex));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
