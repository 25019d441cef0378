-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "checkpoint_seq" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "base_chunk_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "base_session_id" TEXT;


-- Backfill: the last checkpoint sequence number of every existing run.
UPDATE "runs" SET "checkpoint_seq" = COALESCE((SELECT MAX("seq") FROM "checkpoints" WHERE "checkpoints"."run_id" = "runs"."id"), 0);
