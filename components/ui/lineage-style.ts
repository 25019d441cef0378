/**
 * One edge style per lineage kind (SPEC §2 `lineage_kind`), shared by the session graph, its legend and any
 * view that draws lineage: a label, an icon, a stroke colour token and a dash pattern, so kinds differ by more
 * than colour.
 */
import { CircleDot, FoldVertical, GitFork, GitMerge, Repeat, Unlink, type LucideIcon } from "lucide-react";

/** The kinds an edge can have, by the operation that produced its child. */
export type LineageEdgeKind = "loop" | "fork" | "merge" | "compress" | "detach" | "create";

/** How edges of one kind look. */
export interface LineageStyle {
  readonly kind: LineageEdgeKind;
  readonly label: string;
  readonly description: string;
  readonly icon: LucideIcon;
  /** CSS colour (a design-token variable). */
  readonly stroke: string;
  /** SVG stroke-dasharray, or undefined for solid. */
  readonly dash: string | undefined;
  readonly width: number;
}

/** The edge kinds in legend order. */
export const LINEAGE_STYLES: readonly LineageStyle[] = [
  { kind: "loop", label: "loop", description: "an agent turn: the session an agent produced from its input", icon: Repeat, stroke: "var(--rath-lineage-loop)", dash: undefined, width: 1.5 },
  { kind: "fork", label: "fork", description: "a copy that shares every chunk and continues separately", icon: GitFork, stroke: "var(--rath-lineage-fork)", dash: undefined, width: 2 },
  { kind: "merge", label: "merge", description: "two or more sessions joined in order", icon: GitMerge, stroke: "var(--rath-lineage-merge)", dash: undefined, width: 2.5 },
  { kind: "compress", label: "compress", description: "a summary that replaces the chunks it read", icon: FoldVertical, stroke: "var(--rath-lineage-compress)", dash: "6 4", width: 2 },
  { kind: "detach", label: "detach", description: "a copy with no parent link", icon: Unlink, stroke: "var(--rath-lineage-detach)", dash: "2 4", width: 1.5 },
  { kind: "create", label: "create", description: "a session created from text", icon: CircleDot, stroke: "var(--rath-lineage-create)", dash: "1 3", width: 1 },
];

const BY_KIND = new Map(LINEAGE_STYLES.map((entry) => [entry.kind, entry]));

/** The edge kind of a child session's `lineage_kind` (`op_fork` → fork …); anything else counts as create. */
export function lineageEdgeKind(lineageKind: string): LineageEdgeKind {
  switch (lineageKind) {
    case "op_session_loop":
      return "loop";
    case "op_fork":
      return "fork";
    case "op_merge":
      return "merge";
    case "op_session_compress":
      return "compress";
    case "op_detach":
      return "detach";
    default:
      return "create";
  }
}

/** The style of an edge kind. */
export function lineageStyle(kind: LineageEdgeKind): LineageStyle {
  const found = BY_KIND.get(kind);
  if (found === undefined) throw new Error(`no lineage style for '${kind}'`);
  return found;
}
