/**
 * An unknown run id (thrown by app/runs/[id]/layout.tsx before anything streams, so the answer is a real 404):
 * say so, explain why that happens, and offer the way back.
 */
import { SearchX } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";

export default function RunNotFound() {
  return (
    <main data-testid="run-not-found" className="mx-auto max-w-xl px-4 py-16">
      {/* A not-found page has no generateMetadata; React puts this title in the document head. */}
      <title>Run not found · Rath Studio</title>
      <EmptyState
        icon={SearchX}
        title="No run with this id"
        action={
          <Link href="/" data-testid="run-not-found-home" className={buttonClasses("primary")}>
            Back to workflows and recent runs
          </Link>
        }
      >
        The link may be mistyped, or the run belongs to another studio database. Runs started from the home page are listed there under Recent runs.
      </EmptyState>
    </main>
  );
}
