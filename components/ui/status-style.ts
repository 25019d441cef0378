/**
 * One visual language for state, shared by the lists, the canvas run overlay and the session graph: every
 * status has a label, an icon and a colour token (never colour alone). Statuses cover runs, node executions
 * and sessions; an unknown status falls back to a neutral style that still shows its own name.
 */
import { Ban, CircleCheck, CircleDashed, CirclePause, CircleX, Clock, LoaderCircle, OctagonAlert, ShieldAlert, TimerOff, type LucideIcon } from "lucide-react";

/** How one status looks. `color` is a CSS colour (a design-token variable), usable in SVG strokes too. */
export interface StatusStyle {
  readonly label: string;
  readonly icon: LucideIcon;
  readonly color: string;
  /** Tailwind text-colour class for the same token. */
  readonly textClass: string;
  /** Whether the icon should spin (work in progress). */
  readonly spinning: boolean;
}

function style(label: string, icon: LucideIcon, token: string, spinning = false): StatusStyle {
  return { label, icon, color: `var(--rath-status-${token})`, textClass: `text-status-${token}`, spinning };
}

/** Every status the product shows. */
export const STATUS_STYLES: Readonly<Record<string, StatusStyle>> = {
  queued: style("queued", Clock, "queued"),
  pending: style("pending", Clock, "queued"),
  running: style("running", LoaderCircle, "running", true),
  waiting: style("waiting", CirclePause, "waiting"),
  needs_review: style("needs review", ShieldAlert, "review"),
  succeeded: style("succeeded", CircleCheck, "succeeded"),
  completed: style("completed", CircleCheck, "succeeded"),
  failed: style("failed", CircleX, "failed"),
  timed_out: style("timed out", TimerOff, "failed"),
  cancelled: style("cancelled", Ban, "cancelled"),
  crashed: style("crashed", OctagonAlert, "crashed"),
  incomplete: style("incomplete", OctagonAlert, "crashed"),
};

const UNKNOWN_STATUS: StatusStyle = style("unknown", CircleDashed, "queued");

/** The style of `status`; unknown statuses keep their own name as label. */
export function statusStyle(status: string): StatusStyle {
  return STATUS_STYLES[status] ?? { ...UNKNOWN_STATUS, label: status.replaceAll("_", " ") };
}
