"use client";
/**
 * The legend of the session graph: one entry per lineage edge kind present (line sample + icon + label), and the
 * failure path. A strip under the graph rather than over it, so it never covers a node; it folds to its toggle
 * (starting folded in a narrow pane, where it would take two lines), and the person's choice sticks.
 */
import { ChevronDown, ChevronUp } from "lucide-react";
import { useState } from "react";
import { lineageEdgeKind, LINEAGE_STYLES } from "../ui/lineage-style";

/** Props: the lineage kinds present (the legend lists those; all when empty), and whether the pane is narrow. */
export function GraphLegend({ kinds, narrow = false }: { kinds: ReadonlySet<string>; narrow?: boolean }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? !narrow;
  const present = new Set([...kinds].map(lineageEdgeKind));
  const entries = LINEAGE_STYLES.filter((style) => present.size === 0 || present.has(style.kind));
  const Toggle = open ? ChevronDown : ChevronUp;
  return (
    <div data-testid="graph-legend-bar" data-open={open ? "true" : "false"} className="flex min-w-0 shrink-0 items-start gap-2 border-t border-line bg-surface px-2 py-1 text-[11px] text-muted">
      <button
        type="button"
        data-testid="graph-legend-toggle"
        aria-expanded={open}
        aria-controls="graph-legend-list"
        onClick={() => setChosen(!open)}
        className="inline-flex shrink-0 items-center gap-0.5 rounded px-1 py-0.5 font-medium text-muted hover:bg-raised hover:text-ink"
        title={open ? "Hide the legend" : "Show what the edge styles mean"}
      >
        <Toggle className="size-3" aria-hidden="true" />
        Legend
      </button>
      {open ? (
        <ul id="graph-legend-list" data-testid="graph-legend" aria-label="Edge legend" className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 py-0.5">
          {entries.map((style) => {
            const Icon = style.icon;
            return (
              <li key={style.kind} className="inline-flex items-center gap-1" title={style.description} data-kind={style.kind}>
                <svg width="22" height="6" aria-hidden="true">
                  <line x1="1" y1="3" x2="21" y2="3" stroke={style.stroke} strokeWidth={style.width + 0.5} strokeDasharray={style.dash} />
                </svg>
                <Icon className="size-3" aria-hidden="true" />
                {style.label}
              </li>
            );
          })}
          <li className="inline-flex items-center gap-1" title="the path from the root to a failure">
            <svg width="22" height="6" aria-hidden="true">
              <line x1="1" y1="3" x2="21" y2="3" stroke="var(--rath-status-failed)" strokeWidth={2} />
            </svg>
            failure path
          </li>
        </ul>
      ) : null}
    </div>
  );
}
