"use client";
/**
 * When the run page fails to render: what happened (no server details leak: the digest names the log entry) and the
 * ways out. "Try again" reads the server part again (`router.refresh()`): `reset()` alone re-renders the payload that
 * already failed.
 */
import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { buttonClasses } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";

export default function RunError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return (
    <main data-testid="run-page-error" className="mx-auto max-w-xl px-4 py-16">
      <EmptyState
        icon={TriangleAlert}
        title="This run could not be shown"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <button type="button" data-testid="run-error-retry" onClick={retry} className={buttonClasses("primary")}>
              Try again
            </button>
            <Link href="/" data-testid="run-error-home" className={buttonClasses("secondary")}>
              Back to workflows
            </Link>
          </div>
        }
      >
        <p className="[overflow-wrap:anywhere]">{error.digest ? `Something went wrong on the server (reference ${error.digest}).` : error.message || "Something went wrong."}</p>
      </EmptyState>
    </main>
  );
}
