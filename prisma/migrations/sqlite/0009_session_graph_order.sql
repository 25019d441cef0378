-- CreateIndex
CREATE INDEX "sessions_run_id_created_seq_idx" ON "sessions"("run_id", "created_seq");

