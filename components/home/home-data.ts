/** The plain values the home page's server code hands to its components (JSON-safe, no server imports). */

/** One workflow card: identity, what its head revision holds, last run status and the Input node's default text. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  revisionCount: number;
  /** The node types of the head revision, in palette order (empty before the first save). */
  nodeTypes: string[];
  updatedAt: string;
  lastRunStatus: string | null;
  lastRunId: string | null;
  defaultInput: string;
}

/** The provider the studio's workflows run on, shown once on the home page. */
export interface ProviderInUse {
  /** Whether any workflow runs on the offline scripted demo provider (named "scripted"/"demo", or no key). */
  demo: boolean;
  /** Providers configured in settings (never their keys). */
  configured: Array<{ name: string; kind: string; model: string | null; hasApiKey: boolean }>;
}
