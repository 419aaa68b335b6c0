-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "plan_decision" JSONB;
