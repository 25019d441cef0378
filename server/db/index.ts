/**
 * The public API of the database layer: open a database, then call the repository functions with it. Everything
 * here takes the `Database` handle first and runs each write in one transaction. See README.md for the data flow.
 */
export { openDatabase, resolveSqliteSynchronous, type Database, type OpenDatabaseOptions, type SqliteSynchronous } from "./database";
export { resolveDatabaseLocation, parseDatabaseUrl, redactDatabaseUrl, type DatabaseLocation, type DatabaseProvider } from "./database-url";
export { applyMigrations, readMigrations, type MigrationReport } from "./migrator";
export { RunFailure, type RunRecord } from "./run-record";
export { createRun, getRun, listRuns, transition, requestCancel, CreateRunInput, ListRunsInput, type TransitionOptions } from "./run-store";
export { claimNext, claimRun, heartbeat, expireLeases, type Claim, type HeartbeatResult } from "./run-lease";
export { eventsPage, RunEventInput, STORE_EVENT_TYPES, type RunEventRecord, type EventsPageOptions } from "./run-events";
export {
  commitStep,
  latestCheckpoint,
  getCheckpoint,
  checkpointForResume,
  CheckpointInput,
  StepCommit,
  type CheckpointRecord,
  type CommitResult,
} from "./run-commit";
export { SessionInput, SessionBase, ChunkInput, SessionStatus, type SessionRecord, type ChunkRecord } from "./session-record";
export { readSessionChunks, type ChunkRangeOptions } from "./session-chunks";
export { importRun, type ImportRunInput, type ImportedRun } from "./run-import";
export { sessionGraph, getSession, childSessions, chunkPage, type SessionGraph, type SessionEdge, type ChunkPageOptions } from "./session-store";
export {
  prepareEffect,
  markDispatched,
  settleEffect,
  recoverAfterCrash,
  listEffects,
  EffectStatus,
  PrepareEffectInput,
  type EffectRecord,
  type EffectOutcome,
  type RecoveryReport,
} from "./effect-ledger";
export {
  createInterrupt,
  decideInterrupt,
  getInterrupt,
  listPendingInterrupts,
  InterruptDecision,
  InterruptStatus,
  CreateInterruptInput,
  type InterruptRecord,
} from "./interrupt-store";
export {
  createWorkflow,
  updateWorkflow,
  UpdateWorkflowInput,
  findRevisionBySpecHash,
  getWorkflow,
  listWorkflows,
  softDeleteWorkflow,
  saveRevision,
  getRevision,
  listRevisions,
  CreateWorkflowInput,
  SaveRevisionInput,
  type WorkflowRecord,
  type RevisionRecord,
} from "./workflow-store";
export {
  saveProviderSetting,
  getProviderSetting,
  listProviderSettings,
  deleteProviderSetting,
  readProviderApiKeyForEngine,
  SaveProviderSettingInput,
  type ProviderSettingView,
} from "./provider-settings-store";
export { readMemoryDocuments, writeMemoryDocuments, MemoryStoreKey, type WriteMemoryOptions } from "./memory-documents";
