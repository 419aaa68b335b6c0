-- AlterTable
ALTER TABLE "CronTask" ADD COLUMN "key_id" TEXT;

-- AlterTable
ALTER TABLE "DelayTask" ADD COLUMN "key_id" TEXT;
