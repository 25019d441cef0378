/** What a list or panel shows when it has nothing: an icon, one line saying so, and what to do next. */
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** Props: icon, title, an explanation and an optional action (a button or link). */
export interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}

/** A centred, quiet empty state. */
export function EmptyState({ icon: Icon, title, children, action, testId }: EmptyStateProps) {
  return (
    <div data-testid={testId} className="flex flex-col items-center justify-center gap-2 px-6 py-10 text-center">
      <Icon className="size-6 text-faint" aria-hidden="true" />
      <p className="text-sm font-medium text-ink">{title}</p>
      {children ? <div className="max-w-sm text-sm text-muted">{children}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
