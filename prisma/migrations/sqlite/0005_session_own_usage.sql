-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "own_usage" TEXT,
    "inherited_chunk_count" INTEGER NOT NULL DEFAULT 0,
    "created_seq" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "sessions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_sessions" ("base_chunk_count", "base_session_id", "chunk_count", "created_at", "error", "id", "lineage_extras", "lineage_kind", "lineage_operator", "node_id", "parents", "placement", "run_id", "status", "usage") SELECT "base_chunk_count", "base_session_id", "chunk_count", "created_at", "error", "id", "lineage_extras", "lineage_kind", "lineage_operator", "node_id", "parents", "placement", "run_id", "status", "usage" FROM "sessions";
DROP TABLE "sessions";
ALTER TABLE "new_sessions" RENAME TO "sessions";
CREATE INDEX "sessions_run_id_created_at_idx" ON "sessions"("run_id", "created_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Backfill: a merge took all its chunks from its parents; other sessions took the prefix they share with their base.
UPDATE "sessions" SET
  "own_usage" = CASE WHEN "lineage_kind" = 'op_merge' THEN NULL ELSE "usage" END,
  "inherited_chunk_count" = CASE WHEN "lineage_kind" = 'op_merge' THEN "chunk_count" ELSE "base_chunk_count" END;
