/** The legend of the session graph: one entry per lineage edge kind (line sample + icon + label), and the failure path. */
import { lineageEdgeKind, LINEAGE_STYLES } from "../ui/lineage-style";

/** Props: the lineage kinds present (the legend lists those; all when empty). */
export function GraphLegend({ kinds }: { kinds: ReadonlySet<string> }) {
  const present = new Set([...kinds].map(lineageEdgeKind));
  const entries = LINEAGE_STYLES.filter((style) => present.size === 0 || present.has(style.kind));
  return (
    <ul data-testid="graph-legend" aria-label="Edge legend" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-line bg-surface/95 px-2 py-1 text-[11px] text-muted shadow-sm">
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
  );
}
