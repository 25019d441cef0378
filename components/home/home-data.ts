/** The plain values the home page's server code hands to its components (JSON-safe, no server imports). */

/** One workflow row: identity, revision count, last run status and whether its models are the scripted demo. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  revisionCount: number;
  lastRunStatus: string | null;
  lastRunId: string | null;
  defaultInput: string;
  usesDemoProvider: boolean;
}

/** One row of the recent runs table. */
export interface RecentRun {
  id: string;
  workflowName: string;
  status: string;
  startedAt: string | null;
  createdAt: string;
  finishedAt: string | null;
  tokensUsed: number;
}
