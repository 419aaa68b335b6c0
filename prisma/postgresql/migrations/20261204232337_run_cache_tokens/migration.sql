-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "cached_prompt_tokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cache_write_tokens" INTEGER NOT NULL DEFAULT 0;
