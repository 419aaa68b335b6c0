-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "journal_format" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "state_format" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "RunJournalEntry" ADD COLUMN     "format" INTEGER NOT NULL DEFAULT 1;
