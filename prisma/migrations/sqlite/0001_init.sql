-- CreateTable
CREATE TABLE "workflows" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "head_revision_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "deleted_at" DATETIME
);

-- CreateTable
CREATE TABLE "workflow_revisions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflow_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "spec" TEXT NOT NULL,
    "layout" TEXT NOT NULL,
    "spec_sha256" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "parent_revision_id" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workflow_revisions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "runs" (
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
    CONSTRAINT "runs_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "runs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "workflow_revisions" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "run_events" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "seq"),
    CONSTRAINT "run_events_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "checkpoints" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "plan_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "next_nodes" TEXT NOT NULL,
    "pending_interrupts" TEXT NOT NULL,
    "effect_watermark" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "seq"),
    CONSTRAINT "checkpoints_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sessions" (
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
    CONSTRAINT "sessions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "session_parents" (
    "session_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "parent_id" TEXT NOT NULL,

    PRIMARY KEY ("session_id", "position"),
    CONSTRAINT "session_parents_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "chunks" (
    "session_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "meta" TEXT NOT NULL,

    PRIMARY KEY ("session_id", "index"),
    CONSTRAINT "chunks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "effects" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "args" TEXT NOT NULL,
    "idempotent" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "dispatched_at" DATETIME,
    "settled_at" DATETIME,
    CONSTRAINT "effects_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "interrupts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "decision" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" DATETIME,
    CONSTRAINT "interrupts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "provider_settings" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "base_url" TEXT,
    "model" TEXT,
    "api_key" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "workflows_deleted_at_updated_at_idx" ON "workflows"("deleted_at", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_revisions_workflow_id_number_key" ON "workflow_revisions"("workflow_id", "number");

-- CreateIndex
CREATE INDEX "runs_status_priority_id_idx" ON "runs"("status", "priority", "id");

-- CreateIndex
CREATE INDEX "runs_workflow_id_created_at_idx" ON "runs"("workflow_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_status_lease_expires_at_idx" ON "runs"("status", "lease_expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "runs_workflow_id_idempotency_key_key" ON "runs"("workflow_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "sessions_run_id_created_at_idx" ON "sessions"("run_id", "created_at");

-- CreateIndex
CREATE INDEX "session_parents_parent_id_idx" ON "session_parents"("parent_id");

-- CreateIndex
CREATE INDEX "effects_run_id_status_idx" ON "effects"("run_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "effects_run_id_idempotency_key_key" ON "effects"("run_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "interrupts_run_id_status_idx" ON "interrupts"("run_id", "status");

-- CreateIndex
CREATE INDEX "interrupts_status_created_at_idx" ON "interrupts"("status", "created_at");

