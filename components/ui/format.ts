/** Pure display helpers shared by the pages (no React): ids, durations, times, token counts. */

/**
 * A short form of an id for tables: a prefixed sortable id keeps its prefix and last 6 characters
 * (`run_…q3y8aw`); an unprefixed one (a session UUID) its first 8 characters, as git shortens hashes.
 */
export function shortId(id: string): string {
  const underscore = id.indexOf("_");
  if (underscore > 0) {
    const rest = id.slice(underscore + 1);
    return rest.length <= 8 ? id : `${id.slice(0, underscore + 1)}…${rest.slice(-6)}`;
  }
  return id.length <= 10 ? id : id.slice(0, 8);
}

/** Milliseconds between two ISO times as `850 ms`, `2.4 s` or `3 min 5 s`; an em dash when either is missing. */
export function formatDuration(startIso: string | null, endIso: string | null): string {
  if (startIso === null || endIso === null) return "—";
  const milliseconds = Date.parse(endIso) - Date.parse(startIso);
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return "—";
  if (milliseconds < 1000) return `${milliseconds} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS` UTC (the same on server and client, so hydration never differs). */
export function formatTime(iso: string | null): string {
  if (iso === null) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** One formatter for every count (`toLocaleString` builds a new one per call, which shows up in profiles). */
const TOKEN_FORMAT = new Intl.NumberFormat("en-US");

/** A token count with thousands separators (fixed locale, stable across server and browser). */
export function formatTokens(count: number): string {
  return TOKEN_FORMAT.format(count);
}

/** Run statuses a run never leaves (mirrors the engine's terminal statuses). */
export const TERMINAL_STATUSES: readonly string[] = ["succeeded", "failed", "cancelled", "timed_out"];

/** Whether a run in this status still changes (and a page should keep polling). */
export function isActiveStatus(status: string): boolean {
  return !TERMINAL_STATUSES.includes(status);
}
