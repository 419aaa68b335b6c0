-- AlterTable
ALTER TABLE "Run" ADD COLUMN "forked_at_step" INTEGER;
ALTER TABLE "Run" ADD COLUMN "forked_from" TEXT;
ALTER TABLE "Run" ADD COLUMN "key_id" TEXT;

-- CreateIndex
CREATE INDEX "Run_created_at_idx" ON "Run"("created_at");
