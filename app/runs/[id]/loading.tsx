/** While the run page's server part reads the run: the page's frame with quiet placeholders (no layout shift). */
export default function RunLoading() {
  return (
    <main data-testid="run-loading" aria-busy="true" aria-label="Loading the run" className="fill-viewport flex min-w-0 flex-col">
      <div className="shrink-0 space-y-2 border-b border-line bg-surface px-4 py-3">
        <div className="h-5 w-64 max-w-full animate-pulse rounded bg-raised" />
        <div className="h-3 w-96 max-w-full animate-pulse rounded bg-raised" />
      </div>
      <div className="flex min-h-0 flex-1">
        <div className="m-4 flex-1 animate-pulse rounded-md bg-raised" />
        <div className="hidden w-[420px] border-l border-line bg-surface p-3 lg:block">
          <div className="h-4 w-40 animate-pulse rounded bg-raised" />
        </div>
      </div>
    </main>
  );
}
