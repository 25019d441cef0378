/** The frame of the sign-in and first-run pages: the product mark, a title, one line of context, the form. */
import type { ReactNode } from "react";
import { RathMark } from "../shell/rath-mark";

/** Props: the heading, the line under it, and the form. */
export interface AuthCardProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
  testId: string;
}

/** A centred card, full width up to 24 rem (so it fits 390 px screens with a margin). */
export function AuthCard({ title, description, children, testId }: AuthCardProps) {
  return (
    <main className="flex min-h-[calc(100dvh-var(--header-height))] items-start justify-center px-4 py-12 sm:items-center sm:py-16" data-testid={testId}>
      <div className="w-full max-w-sm rounded-lg border border-line bg-surface p-6 shadow-sm">
        <div className="mb-5 flex flex-col items-start gap-3">
          <RathMark className="size-8" />
          <div>
            <h1 className="text-lg font-semibold tracking-tight text-ink">{title}</h1>
            <div className="mt-1 text-sm text-muted">{description}</div>
          </div>
        </div>
        {children}
      </div>
    </main>
  );
}
