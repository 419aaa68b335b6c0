-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "lease_owner" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "takeovers" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "turn_options" JSONB;

-- CreateIndex
CREATE INDEX "Run_lease_owner_idx" ON "Run"("lease_owner");

-- CreateIndex
CREATE INDEX "Run_status_lease_until_idx" ON "Run"("status", "lease_until");
