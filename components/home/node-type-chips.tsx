/** The node types a workflow or template uses, as small labelled chips (icon + name, never the icon alone). */
import {
  ArrowRightToLine,
  Bot,
  Brain,
  FoldVertical,
  GitFork,
  GitMerge,
  LogOut,
  Route,
  ShieldCheck,
  Workflow,
  Wrench,
  type LucideIcon,
} from "lucide-react";

const NODE_TYPE_LOOKS: Record<string, { label: string; icon: LucideIcon }> = {
  input: { label: "Input", icon: ArrowRightToLine },
  agent: { label: "Agent", icon: Bot },
  tool: { label: "Tool", icon: Wrench },
  selector: { label: "Selector", icon: Route },
  fork: { label: "Fork", icon: GitFork },
  merge: { label: "Merge", icon: GitMerge },
  compressor: { label: "Compressor", icon: FoldVertical },
  memory: { label: "Memory", icon: Brain },
  approval: { label: "Approval", icon: ShieldCheck },
  subworkflow: { label: "Sub-workflow", icon: Workflow },
  output: { label: "Output", icon: LogOut },
};

/** Chips for `types`; Input and Output are left out unless `all` (every workflow has them). */
export function NodeTypeChips({ types, all = false, testId }: { types: readonly string[]; all?: boolean; testId?: string }) {
  const shown = all ? types : types.filter((type) => type !== "input" && type !== "output");
  if (shown.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1" data-testid={testId} aria-label="Node types">
      {shown.map((type) => {
        const look = NODE_TYPE_LOOKS[type] ?? { label: type, icon: Wrench };
        const Icon = look.icon;
        return (
          <li
            key={type}
            data-node-type={type}
            className="inline-flex items-center gap-1 rounded border border-line bg-raised px-1.5 py-0.5 text-[11px] font-medium text-muted"
          >
            <Icon className="size-3" aria-hidden="true" />
            {look.label}
          </li>
        );
      })}
    </ul>
  );
}
