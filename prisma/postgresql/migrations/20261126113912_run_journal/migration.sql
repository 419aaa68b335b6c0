-- CreateTable
CREATE TABLE "RunJournalEntry" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "call_index" INTEGER,
    "name" TEXT,
    "status" TEXT,
    "data" JSONB NOT NULL,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "elapsed_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunJournalEntry_pkey" PRIMARY KEY ("run_id","seq")
);

-- AddForeignKey
ALTER TABLE "RunJournalEntry" ADD CONSTRAINT "RunJournalEntry_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
