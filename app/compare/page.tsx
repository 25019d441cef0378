import type { Metadata } from "next";
import { ArrowRightLeft } from "lucide-react";
import Link from "next/link";
import { isRathError } from "../../runtime/errors";
import { SessionCompare } from "../../components/compare/session-compare";
import { EmptyState } from "../../components/ui/empty-state";
import { outputSessionOf } from "../../server/services/session-compare";
import { sharedRuntime } from "../../server/services/shared-runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Compare sessions" };

interface ComparePageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function one(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === "" ? null : text.trim();
}

/** `?a=SESSION&b=SESSION`, or `?runs=RUN_A,RUN_B` (each run stands for its output session). */
async function sessionsToCompare(search: Record<string, string | string[] | undefined>): Promise<{ a: string; b: string } | { problem: string } | null> {
  const runs = one(search.runs)?.split(",").map((id) => id.trim()).filter((id) => id !== "");
  if (runs !== undefined) {
    if (runs.length !== 2) return { problem: `expected two run ids in ?runs=, found ${runs.length}` };
    const { database } = await sharedRuntime();
    try {
      return { a: await outputSessionOf(database, runs[0] as string), b: await outputSessionOf(database, runs[1] as string) };
    } catch (error) {
      if (isRathError(error) && error.isUserError) return { problem: error.message };
      throw error;
    }
  }
  const a = one(search.a);
  const b = one(search.b);
  if (a === null && b === null) return null;
  if (a === null || b === null) return { problem: "expected two sessions: ?a=SESSION_ID&b=SESSION_ID" };
  return { a, b };
}

/** Two sessions (or the outputs of two runs) side by side. */
export default async function ComparePage({ searchParams }: ComparePageProps) {
  const chosen = await sessionsToCompare(await searchParams);
  return (
    <main data-testid="compare-page" className="flex h-[calc(100dvh-var(--header-height))] min-h-[480px] min-w-0 flex-col overflow-hidden">
      <header className="shrink-0 border-b border-line bg-surface px-3 py-2 sm:px-4">
        <h1 className="flex items-center gap-2 text-base font-semibold tracking-tight">
          <ArrowRightLeft className="size-4 text-muted" aria-hidden="true" /> Compare sessions
        </h1>
      </header>
      {chosen === null ? (
        <EmptyState icon={ArrowRightLeft} title="Pick two sessions" testId="compare-empty">
          Use “Compare with…” on a session in a run view, or select two runs on the <Link href="/runs" className="text-accent hover:underline">Runs</Link> page.
        </EmptyState>
      ) : "problem" in chosen ? (
        <p role="alert" data-testid="compare-error" className="m-4 text-sm text-status-failed [overflow-wrap:anywhere]">
          Cannot compare: {chosen.problem}
        </p>
      ) : (
        <SessionCompare key={`${chosen.a}:${chosen.b}`} leftId={chosen.a} rightId={chosen.b} />
      )}
    </main>
  );
}
