-- AlterTable
ALTER TABLE "Run" ADD COLUMN "parent_run_id" TEXT;

-- CreateIndex
CREATE INDEX "Run_parent_run_id_idx" ON "Run"("parent_run_id");
