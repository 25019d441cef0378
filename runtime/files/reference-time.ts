import { RathError } from "../errors";

/** Times as Python's `datetime.isoformat()` writes them for UTC (`…T10:00:00.123456+00:00`, no `Z`). */
const PYTHON_ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3}|\.\d{6})?[+-]\d{2}:\d{2}$/;

/**
 * A time as the reference writes it (`_isoformat_utc` in its persistence `_serialize` module): UTC with
 * `+00:00` and microseconds, which are left out when zero, as `isoformat()` does. Python 3.10's `fromisoformat`
 * (the reference supports 3.10) refuses the `Z` that `Date.toISOString()` writes.
 */
export function pythonIsoTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RathError("invalid_argument", "expected a valid time, found an invalid Date");
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const milliseconds = date.getUTCMilliseconds();
  return `${iso.slice(0, 19)}${milliseconds === 0 ? "" : `.${String(milliseconds * 1000).padStart(6, "0")}`}+00:00`;
}

/**
 * A time string for a reference-dialect file: kept as it is when Python 3.10's `fromisoformat` reads it with
 * its offset (a time read from a reference file stays byte-identical), otherwise re-rendered by `pythonIsoTime`.
 */
export function referenceTime(text: string): string {
  if (PYTHON_ISO_TIME.test(text)) return text;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) {
    throw new RathError("invalid_argument", `expected an ISO 8601 time, found '${text}'`, { details: { found: text } });
  }
  return pythonIsoTime(date);
}
