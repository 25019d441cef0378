/**
 * When the runs list must refresh the server-rendered page around it (the home page's workflow cards show each
 * workflow's latest run). A later answer refreshes when any listed run's status changed; the first answer refreshes
 * when a listed run changed after the page was rendered: a run that started and finished between the server's
 * render and the list's first fetch would otherwise never reach the cards.
 */

/** A listed run: its id, status and last change (ISO time, server clock). */
export interface ListedRun {
  id: string;
  status: string;
  updatedAt: string;
}

/** The list's status key: each run's id and status, in list order. */
export function runStatusKey(runs: ListedRun[]): string {
  return runs.map((run) => `${run.id}:${run.status}`).join(",");
}

/** Whether to refresh the page: `previousKey` is null on the first answer; `renderedAt` is the server's render time (ms). */
export function needsPageRefresh(previousKey: string | null, runs: ListedRun[], renderedAt: number): boolean {
  if (previousKey !== null) return previousKey !== runStatusKey(runs);
  return runs.some((run) => Date.parse(run.updatedAt) > renderedAt);
}
