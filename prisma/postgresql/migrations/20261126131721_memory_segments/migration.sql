-- CreateTable
CREATE TABLE "MemorySegment" (
    "id" SERIAL NOT NULL,
    "principal" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "iteration_index" INTEGER NOT NULL,
    "segment_index" INTEGER NOT NULL,
    "segment_type" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MemorySegment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MemorySegment_principal_session_id_idx" ON "MemorySegment"("principal", "session_id");

-- CreateIndex
CREATE INDEX "MemorySegment_principal_agent_idx" ON "MemorySegment"("principal", "agent");

-- CreateIndex
CREATE UNIQUE INDEX "MemorySegment_run_id_iteration_index_segment_index_key" ON "MemorySegment"("run_id", "iteration_index", "segment_index");

-- AddForeignKey
ALTER TABLE "MemorySegment" ADD CONSTRAINT "MemorySegment_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Full-text index over the segments' text (written by hand: Prisma has no tsvector). The
-- language-neutral 'simple' configuration, as SQLite's unicode61 tokenizer: no stemming, any script.
CREATE INDEX "MemorySegment_content_fts_idx" ON "MemorySegment" USING GIN (to_tsvector('simple'::regconfig, "content"));
