/**
 * Buttons: one component, four variants (primary = the accent, for the one main action of a view; secondary;
 * ghost for toolbars; danger for destructive actions) and two sizes. An `icon` renders before the label;
 * icon-only buttons must pass `aria-label`.
 */
import type { ButtonHTMLAttributes, ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

/** Visual weight of a button. */
export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

/** Props: native button attributes plus variant, size and an optional leading icon. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: "sm" | "md";
  icon?: LucideIcon;
  children?: ReactNode;
}

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-accent text-on-accent hover:bg-accent-strong border border-transparent",
  secondary: "bg-surface text-ink border border-line hover:bg-raised",
  ghost: "bg-transparent text-muted border border-transparent hover:bg-raised hover:text-ink",
  danger: "bg-surface text-status-failed border border-line hover:bg-raised",
};

/** The class list of a button look, for links styled as buttons. */
export function buttonClasses(variant: ButtonVariant = "secondary", size: "sm" | "md" = "md", iconOnly = false): string {
  const sizing = iconOnly ? (size === "sm" ? "size-7" : "size-8") : size === "sm" ? "h-7 px-2 text-xs gap-1" : "h-8 px-3 text-sm gap-1.5";
  return `inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-50 ${sizing} ${VARIANTS[variant]}`;
}

/** A button; `type` defaults to "button" so it never submits a form by accident. */
export function Button({ variant = "secondary", size = "md", icon: Icon, children, className = "", type = "button", ...rest }: ButtonProps) {
  const iconOnly = children === undefined || children === null;
  return (
    <button type={type} className={`${buttonClasses(variant, size, iconOnly)} ${className}`} {...rest}>
      {Icon ? <Icon className={size === "sm" ? "size-3.5" : "size-4"} aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
