-- AlterTable
ALTER TABLE "Run" ADD COLUMN "approval_expires_at" DATETIME;
ALTER TABLE "Run" ADD COLUMN "approvals" JSONB;

-- CreateIndex
CREATE INDEX "Run_status_approval_expires_at_idx" ON "Run"("status", "approval_expires_at");
