-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "created_seq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "inherited_chunk_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "own_usage" TEXT;


-- Backfill: a merge took all its chunks from its parents; other sessions took the prefix they share with their base.
UPDATE "sessions" SET
  "own_usage" = CASE WHEN "lineage_kind" = 'op_merge' THEN NULL ELSE "usage" END,
  "inherited_chunk_count" = CASE WHEN "lineage_kind" = 'op_merge' THEN "chunk_count" ELSE "base_chunk_count" END;
