/** A keyboard key or chord as shown in menus and the shortcut help ("Ctrl", "K"). */
import type { ReactNode } from "react";

/** One key cap. */
export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="inline-flex h-5 min-w-5 items-center justify-center rounded border border-line bg-raised px-1 font-mono text-[11px] text-muted">
      {children}
    </kbd>
  );
}
