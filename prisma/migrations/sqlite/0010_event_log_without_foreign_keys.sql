-- DropIndex
DROP INDEX "sessions_run_id_created_at_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_run_events" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "seq")
);
INSERT INTO "new_run_events" ("at", "payload", "run_id", "seq", "type") SELECT "at", "payload", "run_id", "seq", "type" FROM "run_events";
DROP TABLE "run_events";
ALTER TABLE "new_run_events" RENAME TO "run_events";
CREATE TABLE "new_checkpoints" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "plan_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "next_nodes" TEXT NOT NULL,
    "pending_interrupts" TEXT NOT NULL,
    "effect_watermark" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "seq")
);
INSERT INTO "new_checkpoints" ("at", "effect_watermark", "next_nodes", "pending_interrupts", "plan_hash", "run_id", "seq", "state") SELECT "at", "effect_watermark", "next_nodes", "pending_interrupts", "plan_hash", "run_id", "seq", "state" FROM "checkpoints";
DROP TABLE "checkpoints";
ALTER TABLE "new_checkpoints" RENAME TO "checkpoints";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

