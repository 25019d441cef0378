"use client";
/**
 * A modal dialog on the native <dialog> element (`showModal`): the browser traps focus, Escape closes, and the
 * rest of the page is inert. Controlled by `open`; `onClose` runs on Escape, the close button or a click on
 * the backdrop. On opening, the element marked `data-autofocus` gets the focus (React's `autoFocus` runs before
 * `showModal`, on an element not yet shown, and the browser then focuses the first button: the close button).
 */
import { X } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";

/** Props: open state, title, body, an optional footer (actions) and width. */
export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: "sm" | "md" | "lg";
  testId?: string;
}

const WIDTHS = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-3xl" } as const;

/** The dialog; renders nothing visible while closed. */
export function Dialog({ open, onClose, title, description, children, footer, size = "md", testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // The click handler closes on a backdrop click; the keyboard way out is Escape (onCancel).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${WIDTHS[size]} rounded-lg border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-black/40`}
    >
      {open ? (
        <div className="flex max-h-[85dvh] flex-col">
          <div className="flex items-start gap-3 border-b border-line px-4 py-3">
            <div className="min-w-0 flex-1">
              <h2 id={titleId} className="text-sm font-semibold">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="mt-1 text-sm text-muted">
                  {description}
                </div>
              ) : null}
            </div>
            <button type="button" onClick={onClose} aria-label="Close" className="rounded p-1 text-muted hover:bg-raised hover:text-ink">
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
          {children ? <div className="min-h-0 flex-1 overflow-auto px-4 py-3 text-sm">{children}</div> : null}
          {footer ? <div className="flex flex-wrap justify-end gap-2 border-t border-line px-4 py-3">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
