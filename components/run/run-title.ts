/** The run page's tab title before the layout's " · Rath Studio": the workflow's name and the run's status. */
export function runTitle(workflowName: string, status: string): string {
  return `${workflowName} · ${status.replaceAll("_", " ")}`;
}

/** The whole tab title, as the layout's title template completes `runTitle`. */
export function runDocumentTitle(workflowName: string, status: string): string {
  return `${runTitle(workflowName, status)} · Rath Studio`;
}
