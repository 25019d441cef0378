-- AlterTable
ALTER TABLE "runs" ADD COLUMN "deadline_at" DATETIME;
ALTER TABLE "runs" ADD COLUMN "wait_deadline_at" DATETIME;

