/** The visible label SPEC requires wherever the offline scripted provider answers instead of a real model. */
import { FlaskConical } from "lucide-react";

/** A small amber badge: icon and text, in both themes. */
export function DemoProviderLabel() {
  return (
    <span
      data-testid="demo-provider-label"
      className="inline-flex items-center gap-1 rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <FlaskConical className="size-3.5" aria-hidden="true" />
      Scripted demo provider - no API key
    </span>
  );
}
