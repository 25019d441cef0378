-- DropForeignKey
ALTER TABLE "run_events" DROP CONSTRAINT "run_events_run_id_fkey";

-- DropForeignKey
ALTER TABLE "checkpoints" DROP CONSTRAINT "checkpoints_run_id_fkey";

-- DropIndex
DROP INDEX "sessions_run_id_created_at_idx";

