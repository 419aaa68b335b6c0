-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "daily_cost_budget_usd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "cost_usd" DOUBLE PRECISION;
