-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "deadline_at" TIMESTAMPTZ(3),
ADD COLUMN     "wait_deadline_at" TIMESTAMPTZ(3);

