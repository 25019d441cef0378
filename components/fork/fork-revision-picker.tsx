"use client";
/**
 * The fork dialog's choice of workflow revision. Picking one re-reads the preview for it (its next agent's prompt and
 * model), so it sits above the fields that depend on it.
 */
import { History } from "lucide-react";
import { Field, inputClasses } from "../ui/field";

/** One revision as `runs.forkPreview` lists it. */
export interface ForkRevisionOption {
  id: string;
  number: number;
  message: string;
  current: boolean;
}

/** Props: the workflow's revisions, the chosen one, and what to do on a change. */
export interface ForkRevisionPickerProps {
  id: string;
  revisions: readonly ForkRevisionOption[];
  chosen: string;
  onChoose: (revisionId: string) => void;
}

/** The revision select (nothing when the workflow has one revision). */
export function ForkRevisionPicker({ id, revisions, chosen, onChoose }: ForkRevisionPickerProps) {
  if (revisions.length < 2) return null;
  return (
    <Field id={id} label="Workflow revision" hint="The fork continues with this revision's nodes; the next agent below is that revision's.">
      <div className="flex items-center gap-2">
        <History className="size-4 shrink-0 text-muted" aria-hidden="true" />
        <select id={id} data-testid="fork-revision" className={inputClasses()} value={chosen} onChange={(event) => onChoose(event.target.value)}>
          {revisions.map((revision) => (
            <option key={revision.id} value={revision.id}>
              Revision {revision.number}
              {revision.current ? " (this run)" : ""}
              {revision.message ? ` — ${revision.message.slice(0, 60)}` : ""}
            </option>
          ))}
        </select>
      </div>
    </Field>
  );
}
