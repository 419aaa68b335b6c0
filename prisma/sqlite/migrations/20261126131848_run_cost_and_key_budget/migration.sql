-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "daily_cost_budget_usd" REAL;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "cost_usd" REAL;
