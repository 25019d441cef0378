/**
 * One row of a run's timeline (a node execution, or an imported run's session): a button placed by the virtualiser,
 * linked with the graph — hovering or focusing it highlights `sessions` there, clicking it selects a session, and it
 * lights up when `linked` (its sessions hovered in the graph, or selected). The columns are the caller's.
 */
import type { ReactNode } from "react";

/** Props of a row. */
export interface TimelineRowProps {
  testId: string;
  /** The row's offset in the virtual list, px. */
  start: number;
  /** The grid's column template classes (the row's cells are its children). */
  columns: string;
  linked: boolean;
  /** What hovering or focusing the row highlights in the graph. */
  sessions: readonly string[];
  onHover: (sessionIds: readonly string[]) => void;
  onSelect: () => void;
  /** A tooltip for the whole row. */
  title?: string;
  /** Extra `data-*` attributes the tests and the graph link read (undefined ones are left out). */
  data: Readonly<Record<`data-${string}`, string | undefined>>;
  children: ReactNode;
}

/** The row. */
export function TimelineRow({ testId, start, columns, linked, sessions, onHover, onSelect, title, data, children }: TimelineRowProps) {
  return (
    <button
      type="button"
      data-testid={testId}
      {...data}
      data-highlighted={linked ? "true" : "false"}
      title={title}
      onMouseEnter={() => onHover(sessions)}
      onFocus={() => onHover(sessions)}
      onClick={onSelect}
      className={`absolute left-0 top-0 grid h-[26px] w-full items-center gap-2 px-3 text-left text-xs ${columns} ${linked ? "bg-accent-soft" : "hover:bg-raised"}`}
      style={{ transform: `translateY(${start}px)` }}
    >
      {children}
    </button>
  );
}
