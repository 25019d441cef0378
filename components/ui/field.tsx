/**
 * Form fields: a label above the control, an optional hint, and an error that names what is wrong (wired to
 * the control with aria-describedby / aria-invalid by the caller through `describedBy`). `inputClasses` gives
 * inputs, selects and textareas one look.
 */
import type { ReactNode } from "react";

/** The look of text inputs, selects and textareas; `invalid` adds the failed-status border. */
export function inputClasses(invalid = false): string {
  return `w-full min-w-0 rounded-md border bg-surface px-2.5 py-1.5 text-sm text-ink placeholder:text-faint focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${
    invalid ? "border-status-failed" : "border-line hover:border-line-strong"
  }`;
}

/** Props: the control's id (for the label), label text, hint and error. */
export interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
  className?: string;
}

/** Ids for a field's hint and error, for the control's aria-describedby. */
export function fieldDescribedBy(id: string, hasHint: boolean, hasError: boolean): string | undefined {
  const ids = [hasHint ? `${id}-hint` : null, hasError ? `${id}-error` : null].filter((value): value is string => value !== null);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** A labelled field around one control. */
export function Field({ id, label, hint, error, children, className = "" }: FieldProps) {
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-faint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-status-failed">
          {error}
        </p>
      ) : null}
    </div>
  );
}
