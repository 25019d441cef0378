/**
 * A status as icon + label in the status's colour. `data-status` carries the raw value for tests; the text
 * is the readable label. `compact` shows the icon only (the label stays as the accessible name and tooltip).
 */
import { statusStyle } from "./status-style";

/** Props: the raw status, an optional test id, and whether to hide the visible label. */
export interface StatusBadgeProps {
  status: string;
  testId?: string;
  compact?: boolean;
  className?: string;
}

/** Renders one status. */
export function StatusBadge({ status, testId, compact = false, className = "" }: StatusBadgeProps) {
  const { label, icon: Icon, textClass, spinning } = statusStyle(status);
  return (
    <span
      data-testid={testId}
      data-status={status}
      title={compact ? label : undefined}
      className={`inline-flex shrink-0 items-center gap-1 whitespace-nowrap text-xs font-medium ${textClass} ${className}`}
    >
      <Icon className={`size-3.5 ${spinning ? "animate-spin" : ""}`} aria-hidden="true" />
      {compact ? <span className="sr-only">{label}</span> : <span>{label}</span>}
    </span>
  );
}
