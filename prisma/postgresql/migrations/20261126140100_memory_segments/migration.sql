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


-- Full-text index over the segments (written by hand: Prisma has no tsvector, and the migrator
-- leaves this table out of its schema comparison). Each segment's document holds its text's words
-- (the language-neutral 'simple' configuration, as SQLite's unicode61 tokenizer: no stemming, any
-- script) and its owners as lexemes of their own ('p', 's', 'a' and the MD5 of the principal,
-- session and agent), so a search narrows to one principal (session, agent) inside the index.
-- Stored, so a search that walks the newest segments reads each document instead of parsing it.
-- The repository writes a segment and its document in one statement.
CREATE TABLE "MemorySegmentSearch" (
    "id" INTEGER NOT NULL,
    "document" tsvector NOT NULL,

    CONSTRAINT "MemorySegmentSearch_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "MemorySegmentSearch_id_fkey" FOREIGN KEY ("id") REFERENCES "MemorySegment" ("id") ON DELETE CASCADE
);

CREATE INDEX "MemorySegmentSearch_document_idx" ON "MemorySegmentSearch" USING GIN ("document");
