-- DropIndex
DROP INDEX "Run_status_idx";
