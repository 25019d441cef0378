/**
 * The reference numbers of the Python implementation, read from `references.json` (the one place they live, with
 * their provenance: version, interpreter, date, machine kind). A reference older than `MAX_REFERENCE_AGE_DAYS` is
 * stale: the table then says so instead of claiming a target met or missed against it.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

/** How old a reference may be before targets derived from it are no longer judged. */
export const MAX_REFERENCE_AGE_DAYS = 90;

const ReferenceFile = z.object({
  implementation: z.string().min(1),
  version: z.string().min(1),
  interpreter: z.string().min(1),
  measuredOn: z.iso.date(),
  machine: z.string().min(1),
  reportedIn: z.string().min(1),
  values: z.record(z.string(), z.number().positive()),
  methods: z.record(z.string(), z.string()),
});
export type ReferenceFile = z.infer<typeof ReferenceFile>;

/** Reads and checks a reference file (default: bench/references.json); a malformed file names what is wrong. */
export function loadReferences(file = new URL("./references.json", import.meta.url)): ReferenceFile {
  const text = readFileSync(file, "utf8");
  const parsed = ReferenceFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const problem = parsed.error.issues[0];
    throw new Error(`bench reference file ${String(file)} is malformed: ${problem?.path.join(".") || "(root)"}: ${problem?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** Whole days from the reference's measurement to `now`. */
export function referenceAgeDays(references: Pick<ReferenceFile, "measuredOn">, now: Date = new Date()): number {
  return Math.floor((now.getTime() - Date.parse(`${references.measuredOn}T00:00:00Z`)) / 86_400_000);
}

/** True when the reference is recent enough to judge targets against. */
export function isReferenceFresh(references: Pick<ReferenceFile, "measuredOn">, now: Date = new Date()): boolean {
  const age = referenceAgeDays(references, now);
  return age >= 0 && age <= MAX_REFERENCE_AGE_DAYS;
}

/** One line naming where the reference numbers come from. */
export function provenanceLine(references: ReferenceFile): string {
  return `reference: ${references.implementation} ${references.version}, ${references.interpreter}, measured ${references.measuredOn} on ${references.machine}`;
}
