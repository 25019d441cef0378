-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflow_id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "plan_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "input" TEXT NOT NULL,
    "output" TEXT,
    "error" TEXT,
    "idempotency_key" TEXT,
    "lease_owner" TEXT,
    "lease_expires_at" DATETIME,
    "fencing_token" INTEGER NOT NULL DEFAULT 0,
    "token_budget" INTEGER,
    "tokens_used" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "event_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "checkpoint_seq" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "runs_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "runs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "workflow_revisions" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_runs" ("cancel_requested", "created_at", "error", "event_seq", "fencing_token", "finished_at", "id", "idempotency_key", "input", "lease_expires_at", "lease_owner", "output", "plan_hash", "priority", "revision_id", "started_at", "status", "token_budget", "tokens_used", "updated_at", "version", "workflow_id") SELECT "cancel_requested", "created_at", "error", "event_seq", "fencing_token", "finished_at", "id", "idempotency_key", "input", "lease_expires_at", "lease_owner", "output", "plan_hash", "priority", "revision_id", "started_at", "status", "token_budget", "tokens_used", "updated_at", "version", "workflow_id" FROM "runs";
DROP TABLE "runs";
ALTER TABLE "new_runs" RENAME TO "runs";
CREATE INDEX "runs_status_priority_id_idx" ON "runs"("status", "priority", "id");
CREATE INDEX "runs_workflow_id_created_at_idx" ON "runs"("workflow_id", "created_at");
CREATE INDEX "runs_status_lease_expires_at_idx" ON "runs"("status", "lease_expires_at");
CREATE UNIQUE INDEX "runs_workflow_id_idempotency_key_key" ON "runs"("workflow_id", "idempotency_key");
CREATE TABLE "new_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "node_id" TEXT,
    "parents" TEXT NOT NULL,
    "lineage_operator" TEXT NOT NULL,
    "lineage_kind" TEXT NOT NULL,
    "lineage_extras" TEXT NOT NULL,
    "placement" TEXT NOT NULL,
    "usage" TEXT,
    "chunk_count" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "base_session_id" TEXT,
    "base_chunk_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "sessions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_sessions" ("chunk_count", "created_at", "error", "id", "lineage_extras", "lineage_kind", "lineage_operator", "node_id", "parents", "placement", "run_id", "status", "usage") SELECT "chunk_count", "created_at", "error", "id", "lineage_extras", "lineage_kind", "lineage_operator", "node_id", "parents", "placement", "run_id", "status", "usage" FROM "sessions";
DROP TABLE "sessions";
ALTER TABLE "new_sessions" RENAME TO "sessions";
CREATE INDEX "sessions_run_id_created_at_idx" ON "sessions"("run_id", "created_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Backfill: the last checkpoint sequence number of every existing run.
UPDATE "runs" SET "checkpoint_seq" = COALESCE((SELECT MAX("seq") FROM "checkpoints" WHERE "checkpoints"."run_id" = "runs"."id"), 0);
