-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "forked_at_step" INTEGER,
ADD COLUMN     "forked_from" TEXT,
ADD COLUMN     "key_id" TEXT;

-- CreateIndex
CREATE INDEX "Run_created_at_idx" ON "Run"("created_at");
