-- CreateTable
CREATE TABLE "workflows" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "head_revision_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_revisions" (
    "id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "spec" TEXT NOT NULL,
    "layout" TEXT NOT NULL,
    "spec_sha256" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "parent_revision_id" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
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
    "lease_expires_at" TIMESTAMPTZ(3),
    "fencing_token" INTEGER NOT NULL DEFAULT 0,
    "token_budget" INTEGER,
    "tokens_used" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "event_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_events" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_events_pkey" PRIMARY KEY ("run_id","seq")
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
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkpoints_pkey" PRIMARY KEY ("run_id","seq")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
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
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_parents" (
    "session_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "parent_id" TEXT NOT NULL,

    CONSTRAINT "session_parents_pkey" PRIMARY KEY ("session_id","position")
);

-- CreateTable
CREATE TABLE "chunks" (
    "session_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "meta" TEXT NOT NULL,

    CONSTRAINT "chunks_pkey" PRIMARY KEY ("session_id","index")
);

-- CreateTable
CREATE TABLE "effects" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "args" TEXT NOT NULL,
    "idempotent" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "dispatched_at" TIMESTAMPTZ(3),
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "effects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "interrupts" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "decision" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "interrupts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_settings" (
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "base_url" TEXT,
    "model" TEXT,
    "api_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_settings_pkey" PRIMARY KEY ("name")
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

-- AddForeignKey
ALTER TABLE "workflow_revisions" ADD CONSTRAINT "workflow_revisions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "workflow_revisions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_parents" ADD CONSTRAINT "session_parents_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "effects" ADD CONSTRAINT "effects_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

