"use client";
/** The `?` dialog: every keyboard shortcut of the editor, with this platform's modifier names. */
import { useSyncExternalStore } from "react";
import { Dialog } from "../ui/dialog";
import { Kbd } from "../ui/kbd";
import { isMac, keyLabel, SHORTCUTS } from "./shortcut-list";

const subscribe = () => () => undefined;

/** The help dialog. */
export function ShortcutHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const mac = useSyncExternalStore(subscribe, () => isMac(navigator.platform), () => false);
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" size="lg" testId="shortcut-help">
      <div className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
        {SHORTCUTS.map((group) => (
          <section key={group.group}>
            <h3 className="mb-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase">{group.group}</h3>
            <dl className="space-y-1">
              {group.items.map((item) => (
                <div key={item.action} className="flex items-center justify-between gap-3 text-sm">
                  <dt className="text-muted">{item.action}</dt>
                  <dd className="flex shrink-0 gap-1">
                    {item.keys.map((key) => (
                      <Kbd key={key}>{keyLabel(key, mac)}</Kbd>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
